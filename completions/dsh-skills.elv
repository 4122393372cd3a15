
set edit:completion:arg-completer[dsh-skills] = { |@words|
    var index = (count $words)
    set index = (- $index 1)

    put (env _CLAP_IFS="\n" _CLAP_COMPLETE_INDEX=(to-string $index) DSH_SKILLS_COMPLETE="elvish" dsh-skills -- $@words) | to-lines
}

