// `arbiter solve`'s answer to a stipulation (stip_print.hpp).
#include "stip_print.hpp"

#include <cmath>
#include <iomanip>
#include <iostream>

namespace arb::cli {

double micros(double seconds) {
  return std::round(seconds * 1e6) / 1e6;
}

namespace {

// --jobs on one problem: how the split went (not part of the answer; varies run to run).
void add_threads(Json& j, const arb::stip::Result& r) {
  if (r.threads.empty()) return;
  j["split_seconds"] = micros(r.split_seconds);
  j["threads"] = Json::array();
  for (const auto& t : r.threads)
    j["threads"].push_back({{"nodes", t.nodes},
                            {"busy", micros(t.busy)},
                            {"cpu", micros(t.cpu)},
                            {"helped", t.helped},
                            {"abandoned", t.abandoned},
                            {"dropped", t.dropped}});
}

Json json_nodes(const std::vector<arb::stip::TreeNode>& v);
Json json_node(const arb::stip::TreeNode& n) {
  Json j = {{"uci", n.uci}, {"san", n.san}};
  if (n.dual) j["dual"] = true;
  if (!n.next.empty()) j["next"] = json_nodes(n.next);
  return j;
}
Json json_nodes(const std::vector<arb::stip::TreeNode>& v) {
  Json j = Json::array();
  for (const auto& n : v) j.push_back(json_node(n));
  return j;
}

// A solution tree as problemists print it: `1...d 2.a` per defence, deeper play indented.
void print_answers(const std::vector<arb::stip::TreeNode>& defences, int num, const std::string& indent,
                   bool uci) {
  for (const auto& d : defences) {
    std::string line = indent + std::to_string(num) + "..." + (uci ? d.uci : d.san);
    for (size_t i = 0; i < d.next.size(); ++i)
      line += (i ? ", " : " ") + std::to_string(num + 1) + "." + (uci ? d.next[i].uci : d.next[i].san);
    if (d.next.size() > 1) line += " (dual)";
    std::cout << line << "\n";
    if (!d.next.empty()) print_answers(d.next[0].next, num + 1, indent + "  ", uci);
  }
}

Json json_line(const arb::stip::Line& l) {
  Json j = {{"moves", l.moves}, {"uci", l.uci}, {"san", l.san}};
  if (!l.defences.empty() || !l.threat.empty() || l.zugzwang) {
    j["threat"] = json_nodes(l.threat);
    j["zugzwang"] = l.zugzwang;
    j["defences"] = json_nodes(l.defences);
  }
  return j;
}

}  // namespace

const char* result_word(const arb::stip::Result& r) {
  using arb::stip::Outcome;
  return r.outcome == Outcome::Unknown ? "unknown"
         : r.solution_count > 0        ? "solved"
         : r.shorter_count == 0        ? "none"
                                       : "shorter";
}

namespace {

// One problem's answer as one JSON object.
// `j` holds the fields to put first (solve --epd: the problem's line and position).
Json stip_json(const arb::stip::Result& r, const arb::stip::Options& o, const std::string& goal,
               Json j = Json::object()) {
  j["result"] = result_word(r);
  j["stipulation"] = o.stip.text();
  j["goal"] = goal;
  j["start"] = r.start == arb::Color::White ? "white" : "black";
  j["solutions"] = Json::array();
  for (const auto& l : r.solutions) j["solutions"].push_back(json_line(l));
  j["shorter"] = Json::array();
  for (const auto& l : r.shorter) j["shorter"].push_back(json_line(l));
  j["solution_count"] = r.solution_count;
  j["shorter_count"] = r.shorter_count;
  if (o.tries > 0) {
    j["tries"] = Json::array();
    for (const auto& t : r.tries)
      j["tries"].push_back({{"uci", t.uci},
                            {"san", t.san},
                            {"refutations_uci", t.refutations_uci},
                            {"refutations_san", t.refutations_san}});
  }
  j["proved_none_below"] = r.proved_none_below;
  if (!r.why.empty()) j["why"] = r.why;
  j["nodes"] = r.nodes;
  j["seconds"] = micros(r.seconds);
  add_threads(j, r);
  return j;
}

// One problem's answer for people.
void stip_text(const arb::stip::Result& r, const arb::stip::Options& o, bool uci) {
  using arb::stip::Outcome;
  const std::string st = o.stip.text();
  const char* side = r.start == arb::Color::White ? "white" : "black";
  const bool keyed = !o.stip.series && o.stip.play != arb::stip::Play::Help;
  auto show = [&](const arb::stip::Line& line) {
    const auto& t = uci ? line.uci : line.san;
    std::string out;
    if (keyed)
      return "  " + t[0] + (line.moves < o.stip.moves ? " (in " + std::to_string(line.moves) + ")" : "");
    for (const auto& m : t) out += (out.empty() ? "" : " ") + m;
    return "  " + out;
  };
  std::cout << st << " (" << side << " starts): ";
  switch (r.outcome) {
    case Outcome::Unknown:
      std::cout << "unknown within budget: " << r.why << "\n";
      break;
    case Outcome::None:
      std::cout << "no solution (proved)\n";
      break;
    case Outcome::Solved:
      std::cout << r.solutions.size() << (keyed ? " key" : " solution")
                << (r.solutions.size() == 1 ? "" : "s") << " in " << o.stip.moves
                << (o.stip.half ? ".5" : "");
      if (!r.shorter.empty()) std::cout << ", " << r.shorter.size() << " shorter";
      std::cout << "\n";
      break;
  }
  auto tree = [&](const arb::stip::Line& line) {
    if (!o.tree) return;
    if (line.zugzwang) std::cout << "    zugzwang\n";
    for (const auto& t : line.threat)
      std::cout << "    threat: 2." << (uci ? t.uci : t.san) << (line.threat.size() > 1 ? " (dual)" : "")
                << "\n";
    print_answers(line.defences, 1, "    ", uci);
  };
  for (const auto& line : r.solutions) {
    std::cout << (o.tree ? "  1." + (uci ? line.uci[0] : line.san[0]) + "!" : show(line)) << "\n";
    tree(line);
  }
  if (!r.shorter.empty()) {
    std::cout << "shorter:\n";
    for (const auto& line : r.shorter) {
      if (o.tree) {
        std::cout << "  1." << (uci ? line.uci[0] : line.san[0]) << "! (in " << line.moves << ")\n";
        tree(line);
        continue;
      }
      std::string t = show(line);
      if (!keyed)
        t += "  (" + std::string(o.stip.series ? "ser-" : "") + std::to_string(line.moves) +
             (o.stip.half ? ".5" : "") + ")";
      std::cout << t << "\n";
    }
  }
  if (!r.tries.empty()) {
    std::cout << "tries:\n";
    for (const auto& t : r.tries) {
      std::cout << "  1." << (uci ? t.uci : t.san) << "? but";
      const auto& refs = uci ? t.refutations_uci : t.refutations_san;
      for (size_t i = 0; i < refs.size(); ++i) std::cout << (i ? ", " : " ") << "1..." << refs[i] << "!";
      std::cout << "\n";
    }
  }
  if (r.outcome != Outcome::Unknown)
    std::cout << "none shorter than " << r.proved_none_below << (o.stip.half ? ".5" : "") << " (proved)\n";
  std::cout << "nodes " << r.nodes << ", " << std::fixed << std::setprecision(3) << r.seconds << " s\n";
}

// Help and series play: a line as text, a shorter one with its length.
std::string help_line_text(const arb::stip::Line& l, const arb::stip::Options& o, bool full, bool uci) {
  std::string out;
  for (const auto& m : uci ? l.uci : l.san) out += (out.empty() ? "" : " ") + m;
  out = "  " + out;
  if (!full)
    out += "  (" + std::string(o.stip.series ? "ser-" : "") + std::to_string(l.moves) +
           (o.stip.half ? ".5" : "") + ")";
  return out;
}

// `3 solutions in 4, 1 shorter`.
std::string counts_text(const arb::stip::Result& r, const arb::stip::Options& o) {
  std::string t = std::to_string(r.solution_count) + (r.solution_count == 1 ? " solution" : " solutions") +
                  " in " + std::to_string(o.stip.moves) + (o.stip.half ? ".5" : "");
  if (r.shorter_count) t += ", " + std::to_string(r.shorter_count) + " shorter";
  return t;
}

// The fields of a JSON object without its braces, to splice into a streamed one.
std::string fields(const Json& j) {
  const std::string t = json_text(j);
  return t.size() > 2 ? t.substr(1, t.size() - 2) : "";
}

}  // namespace

StipPrinter::StipPrinter(const arb::stip::Options& o, Color start, bool json, bool uci,
                         const std::string& goal, Json json_head, std::string text_head)
    : o_(o),
      start_(start),
      json_(json),
      uci_(uci),
      keyed_(!o.stip.series && o.stip.play != arb::stip::Play::Help),
      goal_(goal),
      json_head_(std::move(json_head)),
      text_head_(std::move(text_head)) {}

std::string StipPrinter::side_text() const {
  return o_.stip.text() + " (" + (start_ == Color::White ? "white" : "black") + " starts)";
}

void StipPrinter::begin() {
  if (begun_) return;
  begun_ = true;
  if (json_) {
    Json h = json_head_;
    h["stipulation"] = o_.stip.text();
    h["goal"] = goal_;
    h["start"] = start_ == Color::White ? "white" : "black";
    std::cout << "{" << fields(h) << ",\"shorter\":[";
  } else {
    std::cout << text_head_ << side_text() << ":\n";
  }
}

void StipPrinter::close_shorter() {
  if (!in_shorter_) return;
  in_shorter_ = false;
  printed_in_array_ = 0;
  if (json_) std::cout << "],\"solutions\":[";
}

void StipPrinter::line(const arb::stip::Line& l, bool full) {
  begin();
  if (full) close_shorter();
  if (json_)
    std::cout << (printed_in_array_ ? "," : "") << json_text(json_line(l));
  else
    std::cout << help_line_text(l, o_, full, uci_) << "\n";
  ++printed_in_array_;
}

void StipPrinter::finish(const arb::stip::Result& r) {
  using arb::stip::Outcome;
  if (keyed_) {
    if (json_) {
      Json j = json_head_;
      std::cout << json_text(stip_json(r, o_, goal_, j)) << "\n";
    } else {
      std::cout << text_head_;
      stip_text(r, o_, uci_);
    }
    return;
  }
  // Lines the solver held (no on_line): printed as if streamed, shorter ones first.
  for (const auto& l : r.shorter) line(l, false);
  for (const auto& l : r.solutions) line(l, true);
  const bool listed = begun_;
  if (json_) {
    begin();
    close_shorter();
    Json t = Json::object();
    t["result"] = result_word(r);
    t["solution_count"] = r.solution_count;
    t["shorter_count"] = r.shorter_count;
    t["more"] = r.more;
    t["proved_none_below"] = r.proved_none_below;
    if (!r.why.empty()) t["why"] = r.why;
    t["nodes"] = r.nodes;
    t["seconds"] = micros(r.seconds);
    add_threads(t, r);
    std::cout << "]," << fields(t) << "}\n";
    return;
  }
  const std::string lead = listed ? "" : text_head_ + side_text() + ": ";
  switch (r.outcome) {
    case Outcome::Unknown:
      std::cout << lead << "unknown within budget: " << r.why;
      if (listed) std::cout << " (the lines above were found before it stopped)";
      std::cout << "\n";
      break;
    case Outcome::None:
      std::cout << lead << "no solution (proved)\n";
      break;
    case Outcome::Solved:
      std::cout << lead << counts_text(r, o_);
      if (r.more)
        std::cout << " listed; more exist (the search stopped at --max-solutions " << o_.max_lines << ")";
      if (o_.count_only) std::cout << " (counted, not listed)";
      std::cout << "\n";
      break;
  }
  if (r.outcome != Outcome::Unknown)
    std::cout << "none shorter than " << r.proved_none_below << (o_.stip.half ? ".5" : "") << " (proved)\n";
  std::cout << "nodes " << r.nodes << ", " << std::fixed << std::setprecision(3) << r.seconds << " s\n";
}

}  // namespace arb::cli
