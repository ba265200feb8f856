#!/usr/bin/env bash
# Remakes the reference pictures corpus/diagrams/NAME.png of the diagram render test: the
# test itself draws every case of corpus/diagrams/cases.tsv in headless Chromium and, with
# ARBITER_UPDATE_DIAGRAMS=1, writes what it drew instead of comparing. Run it after a
# deliberate change to the drawing and look at the pictures before committing them.
#
#   bash corpus/tools/make_diagram_refs.sh [BUILD_DIR]      (default: build)
# which runs
#   ARBITER_UPDATE_DIAGRAMS=1 BUILD_DIR/tests/diagram_test --gtest_filter=DiagramRender.*
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
ARBITER_UPDATE_DIAGRAMS=1 ARBITER_REQUIRE_CHROMIUM=1 "$build/tests/diagram_test" --gtest_filter='DiagramRender.*'
ls -l "$root"/corpus/diagrams/*.png
