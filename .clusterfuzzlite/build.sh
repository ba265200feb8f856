#!/bin/bash -eu
# Builds the fuzz target with the service's compiler, flags and LIB_FUZZING_ENGINE, then
# puts it in $OUT with the rulesets it loads (found beside the binary) and its seed corpus.
cmake -S "$SRC/arbiter" -B build-cflite -DCMAKE_BUILD_TYPE=Release -DARBITER_FUZZ=ON -DARBITER_TESTS=OFF \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX"
cmake --build build-cflite -j"$(nproc)" --target arbiter_libfuzzer
cp build-cflite/checker/arbiter_libfuzzer "$OUT/arbiter_differential"
cp -r "$SRC/arbiter/rulesets" "$OUT/rulesets"
(cd "$SRC/arbiter/corpus/fuzz/differential" && zip -q -r "$OUT/arbiter_differential_seed_corpus.zip" .)
