// A child process spoken to line by line over a socket pair (its stdin and stdout), with a
// timeout on every read. No shell: the command line is split on whitespace.
#pragma once

#include <sys/types.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace arb::fsf {

// The command could not be started (not installed, not executable).
struct SpawnError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The child did not answer in time, or exited.
struct ProcessError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Process {
 public:
  explicit Process(const std::vector<std::string>& argv);
  ~Process();
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  void write(const std::string& text);  // sent as is (the caller adds newlines)
  // The next line without its newline; throws ProcessError after `seconds` without one or
  // when the child has closed its output.
  std::string read_line(double seconds);
  const std::string& command() const { return command_; }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string buffer_;
  std::string command_;
};

std::vector<std::string> split_command(const std::string& line);

}  // namespace arb::fsf
