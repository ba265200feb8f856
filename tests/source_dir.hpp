// Where the checkout the tests read lives (the rulesets, corpus/), as one out-of-line call.
#pragma once

// The checkout's root. Defined in source_dir.cpp, the one source compiled with the
// ARBITER_SOURCE_DIR definition: a test source that expanded the literal itself let GCC 12
// fold its length into the std::string code around it, and for some lengths of the checkout's
// path (13 characters, /work/ci-base, but not 15) its middle end then reported a false
// out-of-bounds memcpy (-Warray-bounds, GCC bug 105329), which -Werror turned into a failed
// build that depended on where the repository was cloned.
const char* arbiter_source_dir();
