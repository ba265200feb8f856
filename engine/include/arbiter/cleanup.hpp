// Temporary directories a run must not leave behind, even when it ends early: the
// commands' --timeout (Watchdog) and their signal handling (SIGINT, SIGTERM, SIGHUP) remove
// what is registered here before the process exits.
#pragma once

#include <string>

namespace arb {

void register_temp_dir(const std::string& path);
// Forgets `path` (its owner removed it).
void unregister_temp_dir(const std::string& path);
// Removes every registered directory (errors ignored); safe to call from any thread, not
// from a signal handler.
void remove_temp_dirs();

}  // namespace arb
