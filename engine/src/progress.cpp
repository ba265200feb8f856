// The progress line of a long command (progress.hpp).
#include "arbiter/progress.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace arb {

bool progress_wanted(bool json) {
  if (json) return false;
  if (const char* env = std::getenv("ARBITER_PROGRESS")) {
    if (std::string(env) == "1") return true;
    if (std::string(env) == "0") return false;
  }
  return isatty(2);
}

namespace {

std::string rate_text(double r) {
  char b[32];
  std::snprintf(b, sizeof b, r >= 100 ? "%.0f" : r >= 10 ? "%.1f" : "%.2f", r);
  return b;
}

std::string duration_text(double s) {
  if (!std::isfinite(s) || s < 0) return "?";
  const long t = std::lround(s);
  char b[40];
  if (t >= 3600)
    std::snprintf(b, sizeof b, "%ldh%02ldm", t / 3600, t / 60 % 60);
  else
    std::snprintf(b, sizeof b, "%ldm%02lds", t / 60, t % 60);
  return b;
}

}  // namespace

std::string progress_text(const std::string& name, const std::string& unit, uint64_t done, uint64_t total,
                          double seconds, const std::string& extra, double share) {
  std::string o = name + ": " + std::to_string(done);
  if (total > 0) o += "/" + std::to_string(total);
  o += " " + unit;
  if (share < 0 && total > 0) share = std::min(1.0, static_cast<double>(done) / static_cast<double>(total));
  if (share >= 0) o += " (" + std::to_string(static_cast<int>(std::floor(100 * std::min(share, 1.0)))) + "%)";
  o += ", " + rate_text(seconds > 0 ? static_cast<double>(done) / seconds : 0.0) + " " + unit + "/s";
  if (share > 0)
    o += ", ETA " + duration_text(seconds * (1 - std::min(share, 1.0)) / share);
  else if (share == 0)
    o += ", ETA ?";
  if (!extra.empty()) o += ", " + extra;
  return o;
}

ProgressLine::ProgressLine(std::string name, std::string unit, uint64_t total, bool on)
    : name_(std::move(name)),
      unit_(std::move(unit)),
      total_(total),
      on_(on),
      t0_(std::chrono::steady_clock::now()),
      last_(t0_) {}

void ProgressLine::set_total(uint64_t total) {
  std::lock_guard<std::mutex> lock(mu_);
  total_ = total;
}

double ProgressLine::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
}

void ProgressLine::update(uint64_t done, const std::string& extra, double share, bool force) {
  if (!on_) return;
  std::lock_guard<std::mutex> lock(mu_);
  done_ = done;
  extra_ = extra;
  share_ = share;
  updated_ = true;
  const auto now = std::chrono::steady_clock::now();
  if (!force && !(total_ > 0 && done >= total_) && now - last_ < std::chrono::milliseconds(250)) return;
  last_ = now;
  draw();
}

void ProgressLine::draw() {
  const std::string line = progress_text(name_, unit_, done_, total_, seconds(), extra_, share_);
  // `\r`, the line, and erase to the end of the line (a shorter line leaves no tail).
  std::fprintf(stderr, "\r%s\033[K", line.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressLine::finish() {
  if (!on_) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (finished_) return;
  finished_ = true;
  if (updated_) draw();  // the last state (never a line of nothing done)
  if (!drawn_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

}  // namespace arb
