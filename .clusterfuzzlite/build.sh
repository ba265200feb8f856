#!/bin/bash -eu
# Builds every fuzz target with the service's compiler, flags and LIB_FUZZING_ENGINE, then
# puts each in $OUT with the rulesets they load (found beside the binary) and its seed
# corpus: arbiter_differential (checker/fuzz/libfuzzer_target.cpp) and arbiter_NAME for
# every checker/fuzz/targets/fuzz_NAME.cpp (ruleset, fen, chessme, perft_suite, notation, pgn,
# position, puzzles, solver_input).
cmake -S "$SRC/arbiter" -B build-cflite -DCMAKE_BUILD_TYPE=Release -DARBITER_FUZZ=ON -DARBITER_TESTS=OFF \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX"
cmake --build build-cflite -j"$(nproc)" --target arbiter_fuzz_all
cp -r "$SRC/arbiter/rulesets" "$OUT/rulesets"
cp build-cflite/checker/arbiter_libfuzzer "$OUT/arbiter_differential"
(cd "$SRC/arbiter/corpus/fuzz/differential" && zip -q -r "$OUT/arbiter_differential_seed_corpus.zip" .)
for name in ruleset fen chessme perft_suite notation pgn position puzzles solver_input; do
  cp "build-cflite/checker/arbiter_fuzz_$name" "$OUT/arbiter_$name"
  (cd "$SRC/arbiter/corpus/fuzz/$name" && zip -q -r "$OUT/arbiter_${name}_seed_corpus.zip" .)
done
