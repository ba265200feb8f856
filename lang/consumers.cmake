# Issue 25: the consumers of the compiler (the record validator, the solver, the
# differential checker) link the registry and the engine interface only. Their link lines
# say so (checker/records, solver/, checker/CMakeLists.txt: none links arbiter_lang); this
# check names the file and line when one of their sources includes a lang/ header anyway
# (a header reached through another target's include folder, say). Run at configure time
# (lang/CMakeLists.txt includes it) and by ctest's lang_consumers
# (cmake -DARBITER_ROOT=<source tree> -P lang/consumers.cmake).
#
# Not consumers, and left out: the tools built on the compiler, which link arbiter_lang
# and say why in checker/CMakeLists.txt (mutate/ mutates the syntax tree; properties/ plans
# the checks from the model), the registry's own sources and the headers that hand out
# the compiled ruleset (registry/variants.hpp, registry/engines.hpp), synthesis (a Z3 back
# end of the compiler), the proof-game filters read from the program (goal_rules.cpp),
# and the libFuzzer targets, whose code under test is lang/.
if(NOT ARBITER_ROOT)
  get_filename_component(ARBITER_ROOT ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
endif()

set(_consumer_files "")
foreach(g checker/records/*.cpp checker/records/*.hpp checker/fuzz/*.cpp checker/fuzz/*.hpp
          solver/src/*.cpp solver/src/*.hpp solver/include/arbiter/*.hpp
          solver/proofgame/src/*.cpp solver/proofgame/include/arbiter/*.hpp)
  file(GLOB _f ${ARBITER_ROOT}/${g})
  list(APPEND _consumer_files ${_f})
endforeach()
list(APPEND _consumer_files ${ARBITER_ROOT}/checker/registry/catalogue.hpp ${ARBITER_ROOT}/checker/registry/open.hpp
     ${ARBITER_ROOT}/solver/synth/include/arbiter/synth/diagram.hpp ${ARBITER_ROOT}/solver/synth/src/diagram.cpp
     ${ARBITER_ROOT}/solver/synth/src/diagram_text.cpp ${ARBITER_ROOT}/solver/synth/src/figurines.cpp)
list(FILTER _consumer_files EXCLUDE REGEX "/(libfuzzer_target|goal_rules)\\.cpp$")

foreach(f ${_consumer_files})
  file(STRINGS ${f} _lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]arbiter/lang/")
  if(_lines)
    list(GET _lines 0 _l)
    # The line number, for a message a reader can jump to.
    file(STRINGS ${f} _all)
    set(_n 0)
    foreach(_x IN LISTS _all)
      math(EXPR _n "${_n} + 1")
      if(_x STREQUAL _l)
        break()
      endif()
    endforeach()
    file(RELATIVE_PATH _rel ${ARBITER_ROOT} ${f})
    message(FATAL_ERROR "${_rel}:${_n}: includes a lang/ header (${_l}): the record validator, the solver "
                        "and the checker open a ruleset through the registry (registry/open.hpp) and play it "
                        "through arb::Engine; see lang/consumers.cmake")
  endif()
endforeach()
