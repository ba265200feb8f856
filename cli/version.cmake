# Writes the version source of `arbiter --version` (run at build time by the
# arbiter_version target): the project's version and, when the source is a git checkout
# and git is installed, `git describe`. The file is rewritten only when its text changes,
# so an unchanged commit relinks nothing. --no-optional-locks: the build never takes the
# checkout's index lock nor rewrites the index.
set(ARBITER_GIT_DESCRIBE "")
find_program(ARBITER_GIT git)
if(ARBITER_GIT)
  execute_process(COMMAND ${ARBITER_GIT} --no-optional-locks -C ${SOURCE_DIR} describe --always --dirty --tags
                  OUTPUT_VARIABLE ARBITER_GIT_DESCRIBE ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    set(ARBITER_GIT_DESCRIBE "")
  endif()
endif()
configure_file(${INPUT} ${OUTPUT} @ONLY)
