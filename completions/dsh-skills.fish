complete --keep-order --exclusive --command dsh-skills --arguments "(DSH_SKILLS_COMPLETE=fish dsh-skills -- (commandline --current-process --tokenize --cut-at-cursor) (commandline --current-token))"
