// The version `arbiter --version` prints: CMake's project(VERSION) and, when the build
// ran in a git checkout, `git describe` (empty otherwise). Defined in the version source
// cli/version.cmake writes at build time.
#pragma once

namespace arb::cli {
extern const char* const kVersion;
extern const char* const kGitDescribe;
}  // namespace arb::cli
