// Where `extends NAME` and `--variant NAME` find a ruleset (lang/README.md, "Finding
// parents"). The search path, in order:
//   1. the folder of the ruleset that says `extends` (for `extends`; `--variant` has none);
//   2. each folder of $ARBITER_RULESETS (colon-separated, as PATH is);
//   3. the installed rulesets, <prefix>/share/arbiter/rulesets beside the running binary's
//      <prefix>/bin (what `cmake --install` lays out);
//   4. the bundled rulesets of the source tree the binary was built from.
// A parent written with a `/` (`extends "../../rulesets/chess"`) is a path relative to the
// extending file's folder and is not searched for.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace arb::lang {

// Steps 2-4 of the search path, the folders that exist, without duplicates.
std::vector<std::filesystem::path> ruleset_search_path();

// The bundled rulesets of the source tree (step 4), whether or not it exists.
std::filesystem::path bundled_rulesets_dir();

// NAME.rules in `first` (when not empty), then along ruleset_search_path(); every folder
// looked in is appended to `looked` (for the error message).
std::optional<std::filesystem::path> find_ruleset(const std::string& name, const std::filesystem::path& first,
                                                  std::vector<std::filesystem::path>* looked = nullptr);

}  // namespace arb::lang
