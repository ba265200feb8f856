// The diagram's words (see diagram.hpp): piece names, the legend, and text measured and
// wrapped to the drawing's width.
#include <algorithm>
#include <cctype>
#include <set>

#include "arbiter/synth/diagram.hpp"

namespace arb::synth {

std::map<char, std::string> orthodox_names() {
  return {{'K', "king"}, {'Q', "queen"}, {'R', "rook"}, {'B', "bishop"}, {'N', "knight"}, {'P', "pawn"}};
}

std::vector<std::string> legend(const Diagram& d) {
  const std::map<char, std::string> names = d.names.empty() ? orthodox_names() : d.names;
  std::set<char> used;
  for (const auto& [c, ch] : d.pieces)
    used.insert(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
  for (char ch : d.held)
    if (std::isalpha(static_cast<unsigned char>(ch)))
      used.insert(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
  auto name = [&](char ch) {
    auto it = names.find(ch);
    return it == names.end() ? std::string("(unnamed)") : it->second;
  };
  std::vector<std::string> out;
  for (char ch : used) out.push_back(std::string(1, ch) + " " + name(ch));
  std::set<char> plus;
  for (const auto& [c, ch] : d.pieces)
    if (std::find(d.promoted.begin(), d.promoted.end(), c) != d.promoted.end())
      plus.insert(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
  for (char ch : plus) out.push_back("+" + std::string(1, ch) + " promoted " + name(ch));
  std::set<char> tilde;
  for (const auto& [c, ch] : d.pieces)
    if (std::find(d.demotable.begin(), d.demotable.end(), c) != d.demotable.end())
      tilde.insert(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
  for (char ch : tilde) out.push_back(std::string(1, ch) + "~ " + name(ch) + " promoted from a pawn");
  return out;
}

namespace {

// Advance widths in em, rounded up from DejaVu Sans (the widest of the usual sans-serif
// fonts; Liberation Sans and Arial are narrower), so a measured line never overflows.
double em(unsigned char ch) {
  if (ch == ' ') return 0.33;
  if (ch == 'i' || ch == 'j' || ch == 'l' || ch == '.' || ch == ',' || ch == ':' || ch == ';' || ch == '\'' ||
      ch == '|' || ch == '!')
    return 0.34;
  if (ch == 'f' || ch == 't' || ch == 'r' || ch == '(' || ch == ')' || ch == '[' || ch == ']' || ch == '-' ||
      ch == '/')
    return 0.45;
  if (ch == 'm' || ch == 'w') return 1.0;
  if (ch == 'M' || ch == 'W' || ch == '@' || ch == '%') return 1.05;
  if (std::isupper(ch)) return 0.8;
  if (std::isdigit(ch)) return 0.66;
  if (std::islower(ch)) return 0.64;
  if (ch >= 0x80) return 0.5;  // a UTF-8 byte: a multi-byte character counts each byte
  return 0.85;
}

}  // namespace

int text_width(const std::string& text, int font_px) {
  double w = 0;
  for (unsigned char ch : text) w += em(ch);
  return static_cast<int>(w * font_px + 0.999);
}

std::vector<std::string> wrap_text(const std::string& text, int font_px, int width) {
  std::vector<std::string> lines;
  std::string line;
  auto fits = [&](const std::string& s) { return text_width(s, font_px) <= width; };
  size_t i = 0;
  while (i < text.size()) {
    size_t sp = text.find(' ', i);
    std::string word = text.substr(i, sp == std::string::npos ? std::string::npos : sp - i);
    i = sp == std::string::npos ? text.size() : sp + 1;
    std::string joined = line.empty() ? word : line + " " + word;
    if (fits(joined)) {
      line = joined;
      continue;
    }
    if (!line.empty() && text_width(word, font_px) <= width) {
      lines.push_back(line);
      line = word;
      continue;
    }
    // A word longer than a line is cut (never inside a UTF-8 character), its first part
    // filling what is left of the current line.
    std::string head = line.empty() ? "" : line + " ";
    while (!fits(head + word)) {
      size_t n = 0;
      while (n < word.size() && fits(head + word.substr(0, n + 1))) ++n;
      while (n > 0 && n < word.size() && (static_cast<unsigned char>(word[n]) & 0xC0) == 0x80) --n;
      if (n == 0 && head.empty()) n = 1;  // narrower than one character: one a line
      lines.push_back(n ? head + word.substr(0, n) : line);
      word = word.substr(n);
      head.clear();
    }
    line = head + word;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

}  // namespace arb::synth
