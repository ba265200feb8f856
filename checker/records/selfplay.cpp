// arbiter_selfplay: writes self-play game records (PGN in the record format of
// corpus/records/README.md) for the corpus, the tests and the benchmark.
//
//   arbiter_selfplay --variant V [--games N] [--seed S] [--max-plies P] [--set NAME=VALUE]...
//                    [--tag NAME=VALUE]... [--uci-share F] [--faults F] [--first-round K]
//
// Moves: a mix of random legal actions and captures (a capture, when there is one, with
// probability 1/3). --uci-share writes that share of actions in the canonical form instead
// of SAN. --faults F replaces, in that share of games, one action at a random ply by an
// illegal one (a piece of the mover's sent to a square no legal action of that piece type
// reaches), tagged [FaultPly "K"]. Options (--set) become the record's tags: white-army,
// black-army (WhiteArmy, BlackArmy), level (Level); --seed-start K writes [Seed "K+game"]
// (the ChessMe / No Stress Chess deal of each game).
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "arbiter/notation.hpp"
#include "registry/catalogue.hpp"
#include "validate.hpp"

using namespace arb;

namespace {

[[noreturn]] void usage(const std::string& why) {
  std::cerr
      << "arbiter_selfplay: " << why
      << "\nusage: arbiter_selfplay --variant V [--games N] [--seed S] [--max-plies P] [--set NAME=VALUE]..."
         " [--tag NAME=VALUE]... [--uci-share F] [--faults F] [--seed-start K] [--first-round K]\n";
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  std::string variant = registry::default_variant();
  uint64_t games = 10, seed = 1, max_plies = 160, first_round = 1;
  double uci_share = 0, faults = 0;
  int64_t seed_start = -1;
  std::map<std::string, std::string> options;
  std::vector<std::pair<std::string, std::string>> extra_tags;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) usage(a + " needs a value");
      return argv[++i];
    };
    auto kv = [&](std::string s) {
      size_t eq = s.find('=');
      if (eq == std::string::npos) usage("expected NAME=VALUE: " + s);
      return std::make_pair(s.substr(0, eq), s.substr(eq + 1));
    };
    try {
      if (a == "--variant")
        variant = val();
      else if (a == "--games")
        games = std::stoull(val());
      else if (a == "--seed")
        seed = std::stoull(val());
      else if (a == "--max-plies")
        max_plies = std::stoull(val());
      else if (a == "--first-round")
        first_round = std::stoull(val());
      else if (a == "--uci-share")
        uci_share = std::stod(val());
      else if (a == "--faults")
        faults = std::stod(val());
      else if (a == "--seed-start")
        seed_start = std::stoll(val());
      else if (a == "--set")
        options.insert(kv(val()));
      else if (a == "--tag")
        extra_tags.push_back(kv(val()));
      else
        usage("unknown argument " + a);
    } catch (const std::logic_error&) {
      usage("bad number for " + a);
    }
  }
  auto known = registry::find(variant);
  if (!known) usage("unknown variant " + variant + " (bundled: " + registry::names() + ")");
  std::filesystem::path rules = known->ruleset;
  records::RecordEngine re = records::make_record_engine(rules.string(), options);
  if (!re.engine) usage(re.error);
  Engine& e = *re.engine;
  std::mt19937_64 rng(seed);
  std::vector<Action> legal;
  for (uint64_t g = 0; g < games; ++g) {
    std::string start = re.start;
    if (seed_start >= 0) start = "start:" + std::to_string(seed_start + static_cast<int64_t>(g));
    e.set_position(start);
    bool fault_game = faults > 0 && std::uniform_real_distribution<double>(0, 1)(rng) < faults;
    uint64_t fault_ply = 0;
    std::vector<std::string> moves;
    Status st;
    for (uint64_t ply = 1; ply <= max_plies; ++ply) {
      st = e.status();
      if (st.result != Result::Ongoing) break;
      e.legal_actions(legal);
      if (legal.empty()) break;
      Action pick = legal[rng() % legal.size()];
      if (rng() % 3 == 0) {
        std::vector<Action> caps;
        for (const auto& a : legal) {
          auto info = e.describe(a);
          if (!info.steps.empty() && info.steps[0].capture()) caps.push_back(a);
        }
        if (!caps.empty()) pick = caps[rng() % caps.size()];
      }
      std::string text;
      if (fault_game && fault_ply == 0 && ply > 2 && rng() % 12 == 0) {
        // An illegal action: one of the mover's pieces (not a pawn, so that the text is
        // plain SAN) to a square no legal action of that type reaches.
        std::set<std::pair<char, std::pair<int, int>>> reach;
        std::vector<char> types;
        for (const auto& a : legal) {
          auto info = e.describe(a);
          const Step& s = info.steps[0];
          if (s.kind != StepKind::Move || s.castle != Castle::None) continue;
          reach.insert({s.piece, {s.to.x, s.to.y}});
        }
        std::string pos = e.position();
        for (char c : pos.substr(0, pos.find(' ')))
          if ((e.side_to_move() == Color::White ? (c >= 'A' && c <= 'Z') : (c >= 'a' && c <= 'z')) &&
              std::toupper(c) != 'P' && std::toupper(c) != 'K')
            types.push_back(static_cast<char>(std::toupper(c)));
        if (!types.empty()) {
          for (int tries = 0; tries < 50 && text.empty(); ++tries) {
            char t = types[rng() % types.size()];
            int x = static_cast<int>(rng() % 8), y = static_cast<int>(rng() % 8) + 1;
            if (reach.count({t, {x, y}})) continue;
            text = std::string(1, t) + square_name(Coord{x, y});
          }
        }
        if (!text.empty()) {
          fault_ply = ply;
          moves.push_back(text);
          break;
        }
      }
      bool as_uci = uci_share > 0 && std::uniform_real_distribution<double>(0, 1)(rng) < uci_share;
      if (as_uci) {
        text = uci(e.describe(pick), e.chess960());
      } else {
        text = san(e, pick, re.placement_p);
        // SAN is checked for uniqueness (a Chess 2 king-turn's SAN may be ambiguous: then
        // the canonical form is written).
        {
          std::string bare = text;
          while (!bare.empty() && (bare.back() == '+' || bare.back() == '#')) bare.pop_back();
          int same = 0;
          for (const auto& a : legal) {
            std::string o = san(e, a, re.placement_p);
            while (!o.empty() && (o.back() == '+' || o.back() == '#')) o.pop_back();
            if (o == bare) ++same;
          }
          if (same > 1) text = uci(e.describe(pick), e.chess960());
        }
      }
      moves.push_back(text);
      e.apply(pick);
    }
    if (!fault_game || fault_ply == 0) st = e.status();
    std::string result = fault_ply ? "*" : arb::to_string(st.result);
    std::cout
        << "[Event \"Arbiter self-play\"]\n[Site \"arbiter_selfplay\"]\n[Date \"2026.11.22\"]\n[Round \""
        << (first_round + g) << "\"]\n[White \"random\"]\n[Black \"random\"]\n[Result \"" << result
        << "\"]\n";
    if (variant != registry::default_variant()) std::cout << "[Variant \"" << variant << "\"]\n";
    // Each option through the tag the ruleset's `records` block maps to it.
    for (const auto& [k, v] : options)
      for (const auto& t : known->records.tags)
        if (t.target == k) std::cout << "[" << t.tag << " \"" << v << "\"]\n";
    if (seed_start >= 0) std::cout << "[Seed \"" << (seed_start + static_cast<int64_t>(g)) << "\"]\n";
    if (fault_ply) std::cout << "[FaultPly \"" << fault_ply << "\"]\n";
    if (!st.reason.empty() && !fault_ply) std::cout << "[Termination \"" << st.reason << "\"]\n";
    for (const auto& [k, v] : extra_tags) std::cout << "[" << k << " \"" << v << "\"]\n";
    std::cout << "\n";
    std::string line;
    for (size_t i = 0; i < moves.size(); ++i) {
      std::string tok = (i % 2 == 0 ? std::to_string(i / 2 + 1) + ". " : "") + moves[i];
      if (!line.empty() && line.size() + 1 + tok.size() > 79) {
        std::cout << line << "\n";
        line.clear();
      }
      line += (line.empty() ? "" : " ") + tok;
    }
    if (!line.empty() && line.size() + 1 + result.size() > 79) {
      std::cout << line << "\n";
      line.clear();
    }
    std::cout << line << (line.empty() ? "" : " ") << result << "\n\n";
  }
  return 0;
}
