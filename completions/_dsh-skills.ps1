
Register-ArgumentCompleter -Native -CommandName dsh-skills -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $prev = $env:DSH_SKILLS_COMPLETE;
    $env:DSH_SKILLS_COMPLETE = "powershell";

    $args = $commandAst.Extent.Text
    $args = $args.Substring(0, [math]::Min($cursorPosition, $args.Length));
    if ($wordToComplete -eq "") {
        $args += " ''";
    }

    $results = Invoke-Expression @"
& dsh-skills -- $args
"@;
    if ($null -eq $prev) {
        Remove-Item Env:\DSH_SKILLS_COMPLETE;
    } else {
        $env:DSH_SKILLS_COMPLETE = $prev;
    }
    $results | ForEach-Object {
        $split = $_.Split("`t");
        $cmd = $split[0];

        if ($split.Length -eq 2) {
            $help = $split[1];
        }
        else {
            $help = $split[0];
        }

        [System.Management.Automation.CompletionResult]::new($cmd, $cmd, 'ParameterValue', $help)
    }
};
        
