#include "fsf/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <sstream>
#include <thread>

extern char** environ;

namespace arb::fsf {

namespace {
std::string seconds_text(double s) {
  std::ostringstream o;
  o << s;
  return o.str();
}
}  // namespace

std::vector<std::string> split_command(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  std::string word;
  while (in >> word) out.push_back(word);
  return out;
}

Process::Process(const std::vector<std::string>& argv) {
  if (argv.empty()) throw SpawnError("empty engine command");
  for (const auto& a : argv) command_ += (command_.empty() ? "" : " ") + a;
  // A socket pair rather than pipes: writing to a child that died fails with EPIPE through
  // send(MSG_NOSIGNAL) instead of killing this process with SIGPIPE.
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    throw SpawnError(std::string("socketpair: ") + std::strerror(errno));
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
  posix_spawn_file_actions_adddup2(&fa, sv[1], 1);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // The child starts with no signal blocked (the command blocks SIGINT and SIGTERM in its
  // threads to take them in one, see cli/common.hpp handle_signals).
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
  int rc = posix_spawnp(&pid_, args[0], &fa, &attr, args.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&fa);
  close(sv[1]);
  if (rc != 0) {
    close(sv[0]);
    throw SpawnError("cannot start `" + command_ + "`: " + std::strerror(rc));
  }
  fd_ = sv[0];
}

Process::~Process() {
  if (fd_ >= 0) {
    static const char quit[] = "quit\n";
    (void)send(fd_, quit, sizeof quit - 1, MSG_NOSIGNAL);
    close(fd_);
  }
  if (pid_ > 0) {
    // A well-behaved engine exits on `quit` or on the closed socket; give it 200 ms.
    for (int i = 0; i < 40; ++i) {
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

void Process::write(const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = send(fd_, text.data() + done, text.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw ProcessError("`" + command_ + "` is not running (writing failed: " + std::strerror(errno) + ")");
    done += static_cast<size_t>(n);
  }
}

std::string Process::read_line(double seconds) {
  using clock = std::chrono::steady_clock;
  const auto deadline =
      clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(seconds));
  for (;;) {
    size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()).count();
    if (left <= 0)
      throw ProcessError("`" + command_ + "` did not answer within " + seconds_text(seconds) + " s");
    pollfd p{fd_, POLLIN, 0};
    int r = poll(&p, 1, static_cast<int>(left));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;  // the deadline check above reports a timeout
    char chunk[4096];
    ssize_t n = recv(fd_, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw ProcessError("`" + command_ + "` exited");
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

}  // namespace arb::fsf
