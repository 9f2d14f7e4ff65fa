# Writes the shell completions and the man page by running the built kedb:
#   cmake -DKEDB=path/to/kedb -DOUT=folder -P shell_docs.cmake
# A script rather than shell redirections in add_custom_command, so a
# failing kedb fails the build whatever the generator.
foreach(doc "completion bash:kedb.bash" "completion zsh:_kedb" "completion fish:kedb.fish" "man:kedb.1")
  string(REPLACE ":" ";" parts "${doc}")
  list(GET parts 0 args)
  list(GET parts 1 file)
  separate_arguments(args UNIX_COMMAND "${args}")
  execute_process(COMMAND "${KEDB}" ${args} OUTPUT_FILE "${OUT}/${file}.tmp" RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "`kedb ${args}` failed (${status})")
  endif()
  file(RENAME "${OUT}/${file}.tmp" "${OUT}/${file}")
endforeach()
