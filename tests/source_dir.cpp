#include "source_dir.hpp"

const char* arbiter_source_dir() {
  return ARBITER_SOURCE_DIR;
}
