# The stages of lang/ (CMakeLists.txt) see only the headers of the stages below them. Run
# at configure time (include) and by ctest (cmake -DLANG_DIR=... -P layers.cmake): a
# stage's file that includes a header it must not see is an error naming the file and line.
if(NOT LANG_DIR)
  set(LANG_DIR ${CMAKE_CURRENT_LIST_DIR})
endif()
set(_inc ${LANG_DIR}/include/arbiter/lang)
set(_src ${LANG_DIR}/src)

# The front end's headers, the program's, the bitboard library's, the compiler's.
set(_front_headers syntax.hpp diagnostics.hpp construct.hpp model.hpp betza.hpp search_path.hpp export_fsf.hpp)
set(_compiler_headers compile.hpp expect.hpp)
set(_backend_headers bitboard.hpp backends.hpp card_board.hpp)

function(_lang_layer_check stage)
  cmake_parse_arguments(A "" "" "FILES;FORBID" ${ARGN})
  foreach(f ${A_FILES})
    file(STRINGS ${f} _lines REGEX "^#include \"")
    foreach(_l ${_lines})
      foreach(h ${A_FORBID})
        string(REPLACE "." "\\." _hre ${h})
        if(_l MATCHES "[\"/]${_hre}\"")
          message(FATAL_ERROR "${f}: ${stage} includes ${h} (${_l}): lang/CMakeLists.txt's "
                              "targets point one way, front end <- compiler -> program <- back ends")
        endif()
      endforeach()
    endforeach()
  endforeach()
endfunction()

file(GLOB _front_files ${_src}/front/*)
list(APPEND _front_files ${_inc}/syntax.hpp ${_inc}/diagnostics.hpp ${_inc}/construct.hpp ${_inc}/model.hpp
     ${_inc}/betza.hpp ${_inc}/search_path.hpp ${_inc}/export_fsf.hpp)
_lang_layer_check("the front end" FILES ${_front_files}
                  FORBID program.hpp ${_compiler_headers} ${_backend_headers})

set(_program_files ${_inc}/program.hpp ${_src}/chess960.cpp)
_lang_layer_check("the program" FILES ${_program_files}
                  FORBID ${_front_headers} ${_compiler_headers} ${_backend_headers})

file(GLOB _bitboard_files ${_src}/gen_*.hpp)
list(APPEND _bitboard_files ${_inc}/bitboard.hpp ${_src}/generator.cpp ${_src}/generator_impl.hpp
     ${_src}/card_board.hpp ${_src}/backends.hpp)
set(_backend_files ${_bitboard_files} ${_src}/grid_generator.cpp ${_src}/card_generator.cpp
    ${_src}/card_generator_draws.hpp)
_lang_layer_check("a back end" FILES ${_backend_files} FORBID ${_front_headers} ${_compiler_headers})
