// The differential checker: every saved divergence replays clean, the bundled rulesets
// agree with the reference engines, the checker's parts (mutation, shrinking, parallel
// runs) behave, and it catches seeded rule mutations: a mutant that survives its budget
// fails the test (the mutation suite, with a score per variant).
#include "fuzz/fuzz.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "arbiter/chessme_text.hpp"
#include "arbiter/lang/compile.hpp"
#include "arbiter/parallel.hpp"
#include "fuzz/mutate.hpp"
#include "helpers.hpp"
#include "reference.hpp"

namespace fs = std::filesystem;

namespace {

using testing_helpers::fast;

std::string rules_path(const std::string& variant) {
  return testing_helpers::ruleset_path(variant);
}

std::string read(const fs::path& p) {
  return testing_helpers::read_text(p.string());
}

std::shared_ptr<const arb::lang::Program> compile_path(const std::string& path,
                                                       const std::map<std::string, std::string>& sets = {},
                                                       bool expect_ok = true) {
  arb::lang::Diagnostics diags;
  auto c = arb::lang::compile_file(path, sets, diags);
  if (expect_ok) {
    EXPECT_FALSE(diags.has_errors()) << diags.render();
  }
  return c.program;
}

// Compiles `text` as rulesets/NAME.rules would be: in a directory of its own (tests run in
// parallel) holding copies of the bundled rulesets, so that `extends` finds the parents.
std::shared_ptr<const arb::lang::Program> compile_text(const std::string& text, const std::string& name,
                                                       bool expect_ok = true) {
  fs::path dir =
      fs::temp_directory_path() / ("arbiter-fuzz-test-" + std::to_string(getpid()) + "-" +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::create_directories(dir);
  for (const auto& e : fs::directory_iterator(fs::path(arbiter_source_dir()) / "rulesets"))
    if (e.is_regular_file())
      fs::copy_file(e.path(), dir / e.path().filename(), fs::copy_options::overwrite_existing);
  fs::path file = dir / (name + ".rules");
  std::ofstream(file) << text;
  auto program = compile_path(file.string(), {}, expect_ok);
  fs::remove_all(dir);
  return program;
}

arb::fuzz::EngineFactory compiled(std::shared_ptr<const arb::lang::Program> p) {
  return [p] { return arb::lang::make_compiled_engine(p); };
}
arb::fuzz::EngineFactory reference(const std::string& variant) {
  return [variant] { return arb::ref::make_reference_engine(variant); };
}

arb::fuzz::Report fuzz(std::shared_ptr<const arb::lang::Program> p, const std::string& variant,
                       const arb::fuzz::Options& o) {
  return arb::fuzz::run(compiled(p), reference(variant), compiled(p)()->position(), o);
}

}  // namespace

TEST(Regressions, EverySavedDivergenceReplaysClean) {
  fs::path dir = fs::path(arbiter_source_dir()) / "corpus" / "regressions";
  int replayed = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".txt") continue;
    std::map<std::string, std::string> kv;
    std::istringstream in(read(e.path()));
    std::string line;
    while (std::getline(in, line)) {
      size_t colon = line.find(": ");
      if (colon != std::string::npos)
        kv[line.substr(0, colon)] = line.substr(colon + 2);
      else if (!line.empty() && line.back() == ':')
        kv[line.substr(0, line.size() - 1)] = "";
    }
    ASSERT_TRUE(kv.count("variant") && kv.count("position")) << e.path();
    std::map<std::string, std::string> sets;
    std::istringstream set_words(kv["sets"]);
    for (std::string w; set_words >> w;)
      if (size_t eq = w.find('='); eq != std::string::npos) sets[w.substr(0, eq)] = w.substr(eq + 1);
    std::string path = rules_path(kv["variant"]);
    if (!kv["rules"].empty()) {
      fs::path p = kv["rules"];
      path = (p.is_absolute() ? p : fs::path(arbiter_source_dir()) / p).string();
    }
    auto program = compile_path(path, sets);
    ASSERT_TRUE(program) << e.path();
    auto a = arb::lang::make_compiled_engine(program);
    auto b = arb::ref::make_reference_engine(kv["variant"]);
    ASSERT_TRUE(b) << e.path();
    auto d = arb::fuzz::reproduce(*a, *b, kv["position"], kv["action"]);
    EXPECT_FALSE(d) << e.path() << ": " << arb::fuzz::to_json(*d);
    ++replayed;
  }
  std::cout << "replayed " << replayed << " saved divergences\n";
}

TEST(Fuzz, BundledRulesetsAgreeWithReferences) {
  struct Budget {
    const char* variant;
    uint64_t games, fast_games;
  };
  for (const Budget& b :
       {Budget{"chess", 150, 20}, Budget{"chessembly", 150, 20}, Budget{"chessme", 30, 4}}) {
    auto program = compile_path(rules_path(b.variant));
    ASSERT_TRUE(program) << b.variant;
    arb::fuzz::Options o;
    o.seed = 7;
    o.games = fast() ? b.fast_games : b.games;
    auto r = fuzz(program, b.variant, o);
    EXPECT_FALSE(r.divergence) << b.variant << ": " << arb::fuzz::to_json(*r.divergence);
    EXPECT_GT(r.positions, o.games * 10) << b.variant;
    EXPECT_GT(r.mutations, 0u) << b.variant;
    std::cout << b.variant << ": " << r.positions << " positions, " << r.mutations << " mutated, "
              << r.acceptance_differences << " acceptance differences\n";
  }
}

TEST(Fuzz, DeterministicForASeedAndJobCount) {
  auto program = compile_path(rules_path("chessembly"));
  ASSERT_TRUE(program);
  arb::fuzz::Options o;
  o.seed = 3;
  o.games = 12;
  auto once = [&](int jobs) {
    auto r = arb::fuzz::run_parallel(compiled(program), reference("chessembly"),
                                     compiled(program)()->position(), o, jobs);
    return std::to_string(r.games) + " " + std::to_string(r.positions) + " " + std::to_string(r.mutations) +
           " " + std::to_string(r.acceptance_differences);
  };
  EXPECT_EQ(once(1), once(1));
  EXPECT_EQ(once(2), once(2));
}

TEST(Mutate, FenMutationsKeepTheFormatAndAreSeeded) {
  const std::string text = "r3k2r/8/8/8/6pP/8/8/R3K2R[QNp] b KQkq h3 0 8";
  EXPECT_EQ(arb::fuzz::detect_format(text), arb::fuzz::TextFormat::Fen);
  EXPECT_EQ(arb::fuzz::piece_alphabet(text), "RKPQN");
  std::mt19937_64 r1(5), r2(5);
  arb::fuzz::Choose c1 = [&](uint64_t n) { return r1() % n; }, c2 = [&](uint64_t n) { return r2() % n; };
  int changed = 0;
  for (int i = 0; i < 200; ++i) {
    auto m1 = arb::fuzz::mutate_position(text, "", c1), m2 = arb::fuzz::mutate_position(text, "", c2);
    ASSERT_EQ(m1, m2);
    if (!m1) continue;
    EXPECT_EQ(arb::fuzz::detect_format(*m1), arb::fuzz::TextFormat::Fen) << *m1;
    changed += *m1 != text;
  }
  EXPECT_GT(changed, 150);
  auto smaller = arb::fuzz::removal_candidates(text);
  // 8 pieces, 3 reserve letters, 4 castling rights, 1 counter not at its start value.
  EXPECT_EQ(smaller.size(), 8u + 3u + 4u + 1u);
  EXPECT_NE(std::find(smaller.begin(), smaller.end(), "r3k2r/8/8/8/6pP/8/8/R3K2R[Np] b KQkq h3 0 8"),
            smaller.end());
}

TEST(Mutate, ChessMeMutationsChangePiecesHandsAndPiles) {
  const std::string text = arb::chessme_start(1);
  EXPECT_EQ(arb::fuzz::detect_format(text), arb::fuzz::TextFormat::ChessMe);
  std::mt19937_64 rng(9);
  arb::fuzz::Choose choose = [&](uint64_t n) { return rng() % n; };
  int parsed = 0, hands = 0, piles = 0, boards = 0;
  auto field = [](const std::string& t, int i) {
    std::istringstream in(t);
    std::string f;
    for (int k = 0; k <= i; ++k) in >> f;
    return f;
  };
  for (int i = 0; i < 300; ++i) {
    auto m = arb::fuzz::mutate_position(text, "", choose);
    if (!m) continue;
    try {
      arb::parse_chessme(*m);
      ++parsed;
    } catch (const arb::PositionError&) {
    }
    boards += field(*m, 0) != field(text, 0);
    hands += field(*m, 2) != field(text, 2);
    piles += field(*m, 3) != field(text, 3) || field(*m, 4) != field(text, 4);
  }
  EXPECT_GT(parsed, 100);
  EXPECT_GT(boards, 30);
  EXPECT_GT(hands, 30);
  EXPECT_GT(piles, 30);
  // Shrinking candidates: one per piece, per pile tile, per letter of a hand (BNP, rbb).
  EXPECT_EQ(arb::fuzz::removal_candidates(text).size(), 10u + 3u + 2u + 8u + 8u);
}

// Every mutated ChessMe position is one the parser accepts (fuzz printed positions with a
// fourth tile in a hand or a ninth pawn, which `moves` then refused), and the engines
// agree on taking it:
// chains of mutations, plain and targeted, from the start and from positions deep in games.
TEST(Mutate, ChessMeMutationsAreAlwaysAccepted) {
  auto compiled = testing_helpers::compiled_engine("chessme");
  auto reference = arb::ref::make_reference_engine("chessme");
  std::mt19937_64 rng(31);
  arb::fuzz::Choose choose = [&](uint64_t n) { return rng() % n; };
  int made = 0, hand_changes = 0;
  for (int chain = 0; chain < 60; ++chain) {
    std::string text = arb::chessme_start(1 + chain % 4);
    compiled->set_position(text);
    std::vector<arb::Action> acts;
    for (int ply = 0; ply < chain % 7; ++ply) {  // a few random turns first
      compiled->legal_actions(acts);
      if (acts.empty()) break;
      compiled->apply(acts[rng() % acts.size()]);
    }
    text = compiled->position();
    for (int step = 0; step < 12; ++step) {
      std::string what;
      auto m = arb::fuzz::mutate_position(text, "", choose, &what, step % 2 == 0);
      if (!m) continue;
      ++made;
      hand_changes += what.rfind("hand", 0) == 0;
      ASSERT_NO_THROW(arb::parse_chessme(*m)) << *m << " (" << what << ") from " << text;
      // The engines may still refuse an illegal position (the side not to move in check),
      // both alike; then the chain goes on from the last position they took.
      auto takes = [&](arb::Engine& e) {
        try {
          e.set_position(*m);
          return true;
        } catch (const arb::PositionError&) {
          return false;
        }
      };
      const bool a = takes(*compiled), b = takes(*reference);
      ASSERT_EQ(a, b) << *m << " (" << what << ")";
      if (a) text = *m;
    }
  }
  EXPECT_GT(made, 400);
  EXPECT_GT(hand_changes, 40);
}

TEST(Mutate, TranslatesChessMeTextAndActions) {
  auto off = arb::fuzz::origin_offset("Kc10,P(-2,9),k(4,30) w -/- -/- -/- 1");
  ASSERT_TRUE(off);
  EXPECT_EQ(off->first, 2);
  EXPECT_EQ(off->second, -8);
  EXPECT_EQ(arb::fuzz::translate_position("Kc10,P(-2,9),k(4,30) w -/- -/- -/- 1", 2, -8),
            "kg22,Ke2,Pa1 w -/- -/- -/- 1");
  EXPECT_EQ(arb::fuzz::translate_actions("a2a3,P@(-1,3) e7e8q pass c4c5r,N@b3", 1, -2),
            "(1,0)b1,P@a1 f5f6q pass d2d3r,N@c1");
  EXPECT_FALSE(arb::fuzz::origin_offset("Ka1,kc3 w -/- -/- -/- 1"));
}

// A divergence far from the origin shrinks toward it, with fewer pieces and tiles.
TEST(Shrink, ChessMeMovesNearerTheOriginAndDropsTiles) {
  std::string text = read(rules_path("chessme"));
  std::string from = "piece knight N { betza \"N\" }";
  size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, from.size(), "piece knight N { betza \"C\" }");
  auto program = compile_text(text, "chessme");
  ASSERT_TRUE(program);
  arb::fuzz::Divergence d;
  d.position = "kc6,pa5,pb5,Nc3,Pa2,Pb2,Kc1 w B/r -/- -/- 1";
  auto moved = arb::fuzz::translate_position(d.position, 40, 25);
  ASSERT_TRUE(moved);
  auto a = arb::lang::make_compiled_engine(program);
  auto b = arb::ref::make_reference_engine("chessme");
  auto found = arb::fuzz::reproduce(*a, *b, *moved, "");
  ASSERT_TRUE(found) << *moved;
  auto s = arb::fuzz::shrink(compiled(program), reference("chessme"), *found);
  ASSERT_TRUE(arb::fuzz::origin_offset(s.position) == std::nullopt) << s.position;
  EXPECT_LT(s.position.size(), moved->size()) << s.position;
  EXPECT_TRUE(arb::fuzz::reproduce(*a, *b, s.position, s.action)) << s.position;
  std::cout << "shrunk " << *moved << "\n    to " << s.position << " (" << s.diff << ")\n";
}

// Seeded rule mutations, per variant. Each mutant replaces one piece of the bundled
// ruleset's text; the fuzzer, from a fixed seed and within a fixed number of games, must
// find a divergence between the mutant and the reference engine, and that divergence must
// be the mutation's: it replays on the mutant and replays clean on the bundled ruleset (so
// no mutant is an equivalent one). A surviving mutant fails the test.
using arb::lang::ConstructId;

struct Mutant {
  const char* name;
  const char* from;
  const char* to;
  ConstructId construct;  // the construct the mutation changes
  bool refused = false;   // the mutant must be refused by the compiler (`arbiter check`)
  // Where the fuzzer starts (the start by default): a rule that random games seldom reach
  // (a bare-king ending) is checked from a position where it applies.
  const char* start = nullptr;
  // A position text only one engine accepts counts (castling rights in a variant without).
  bool strict = false;
};

struct VariantMutants {
  const char* variant;
  uint64_t games;  // the budget per mutant, the same under ARBITER_FAST
  std::vector<Mutant> mutants;
  // Constructs the variant uses that no mutant changes, each with the reason.
  std::vector<std::pair<ConstructId, const char*>> uncovered;
};

void PrintTo(const VariantMutants& v, std::ostream* os) {
  *os << v.variant;
}

using enum arb::lang::ConstructId;
constexpr bool kRefused = true;

const std::vector<VariantMutants>& mutation_table() {
  static const std::vector<VariantMutants> table = {
      {"chess",
       300,
       {
           {"no en passant", "fmWfceFifmnD", "fmWfcFifmnD", Betza},
           {"no double step", "fmWfceFifmnD", "fmWfceF", Betza},
           {"pawns capture forward", "fmWfceFifmnD", "fWfceFifmnD", Betza},
           {"no underpromotion", "promote on rank 8 to Q R B N", "promote on rank 8 to Q", PromoteOnRank},
           {"knight as a camel", "piece knight N { betza \"N\" }", "piece knight N { betza \"C\" }", Betza},
           {"queen-side castling to the b-file", "queen-side king-to c rook-to d",
            "queen-side king-to b rook-to c", CastlingQueenSide},
           {"repetition claim at two", "claim repetition\n", "claim repetition 2\n", Claim},
           {"king-side castling to the f-file", "king-side king-to g rook-to f",
            "king-side king-to f rook-to e", CastlingKingSide},
           {"fifty-move claim at 60 halfmoves", "claim fifty-move\n", "claim fifty-move 60\n", Claim},
           {"repetition option at two", "option repetition = 3", "option repetition = 2", Option},
           {"double step from rank 3", "initial ranks 2", "initial ranks 3", Initial},
           {"a pawn on a2 at the start", "setup \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/",
            "setup \"rnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/", SetupText},
           {"placements instead of moves", "action move\n", "action place\n", ActionMove},
           {"kings may be left in check", "  royal-safe  #", "  #", RoyalSafe},
           // Blind spots of plain random games, reached from the start by the biased
           // mutations (endings, castling rights) and back-and-forth stretches (repetitions).
           {"no insufficient-material draw", "  insufficient-material -> draw", "  #", EndInsufficient},
           {"repetition option at four", "option repetition = 3", "option repetition = 4", Option},
           {"no repetition claim", "  claim repetition\n", "\n", Claim},
           {"a 9-rank board", "board 8 x 8", "board 8 x 9", BoardRect, kRefused},
           {"no royal piece", "  royal\n", "\n", Royal, kRefused},
           {"pawns forbidden on rank 2", "forbidden ranks 1", "forbidden ranks 2", Forbidden, kRefused},
           {"castling with the queen", "  rook R\n", "  rook Q\n", CastlingRook, kRefused},
           {"no castling",
            "castling {\n  rook R\n  king-side king-to g rook-to f\n  queen-side king-to c rook-to d\n}",
            "castling none", Castling, kRefused},
           {"no checkmate rule", "  checkmate -> loss\n", "\n", EndCheckmate, kRefused},
           {"no stalemate rule", "  stalemate -> draw\n", "\n", EndStalemate, kRefused},
       },
       {}},
      {"chessembly",
       300,
       {
           {"no en passant", "fmWfceFifmnD", "fmWfcFifmnD", Betza},
           {"placement region ranks 1..5", "region ranks 1..4", "region ranks 1..5", PlaceRegion},
           {"placement region ranks 2..4", "region ranks 1..4", "region ranks 2..4", PlaceRegion},
           {"no double step from rank 1", "initial ranks 1..2", "initial ranks 2", Initial},
           {"no first royal", "first royal\n", "\n", PlaceFirstRoyal},
           {"castling allowed", "castling none\n",
            "castling {\n  rook R\n  king-side king-to g rook-to f\n  queen-side king-to c rook-to d\n}\n",
            CastlingNone, false, nullptr, true},
           {"no insufficient-material draw", "  insufficient-material -> draw", "  #", EndInsufficient},
           {"insufficient material with reserves", "draw when reserves-empty", "draw", EndInsufficient},
           {"promotion to Q only", "promote on rank 8 to Q R B N", "promote on rank 8 to Q", PromoteOnRank},
           {"knight as a camel", "castling none\n", "castling none\npiece knight N { betza \"C\" }\n", Betza},
           {"fifty-move claim at 60 halfmoves", "claim fifty-move  #", "claim fifty-move 60  #", Claim},
           {"repetition claim at two", "claim repetition\n", "claim repetition 2\n", Claim},
           {"pawns capture forward", "fmWfceFifmnD", "fWfceFifmnD", Betza},
           {"seven pawns in reserve", "reserve K Q R*2 B*2 N*2 P*8", "reserve K Q R*2 B*2 N*2 P*7", Reserve},
           {"moves only", "action move or place", "action move", ActionPlace},
           {"the chess start", "setup empty\n", "\n", SetupEmpty, kRefused},
           {"moves dropped", "action move or place", "action place", ActionMove},
           {"kings may be left in check", "  royal-safe\n", "\n", RoyalSafe},
           {"no checkmate rule", "  checkmate -> loss\n", "\n", EndCheckmate, kRefused},
           {"no stalemate rule", "  stalemate -> draw\n", "\n", EndStalemate, kRefused},
       },
       {
           // Dropping `royals-apart` is an equivalent mutant while `royal-safe` holds (a king
           // next to the enemy king stands attacked by it), and a test proves it.
           {RoyalsApart, "equivalent while royal-safe holds (conformance_chessembly_test)"},
       }},
      // ChessMe (runs since chessme.rules compiles). Mutants the grid generator cannot
      // execute yet are refused by the compiler: the adjacency rule dropped, placements
      // that escape check or promote, a royal left attacked.
      {"chessme",
       60,
       {
           {"king steps backward", "betza \"sfmKcK\"", "betza \"K\"", Betza},
           {"king captures only sideways and forward", "betza \"sfmKcK\"", "betza \"sfmKsfcK\"", Betza},
           {"pawn double step", "betza \"fmWfcF\"", "betza \"fmWfcFfmD\"", Betza},
           {"pawns capture forward", "betza \"fmWfcF\"", "betza \"fWfcF\"", Betza},
           {"pawns capture backward too", "betza \"fmWfcF\"", "betza \"fmWcF\"", Betza},
           {"no pawn placements", "  pawn beside own-pawn\n", "\n", PlacePawnBeside},
           {"no placements behind pawns", "  other behind own-pawn\n", "\n", PlaceOtherBehind},
           {"no draw after a placement", "  phase draw after place\n", "\n", PhaseDraw},
           {"knight as a camel", "piece knight N { betza \"N\" }", "piece knight N { betza \"C\" }", Betza},
           {"no promotion by exchange", "  promote on enemy-royal-rank by-exchange from captured optional\n",
            "\n", PromoteByExchange},
           {"start shuffle seed 2", "option seed = 1", "option seed = 2", Option},
           {"three pawns in the pile", "pile Q R*2 B*2 N*2 P*4", "pile Q R*2 B*2 N*2 P*3", Pile},
           // The grid runs any hand (issue 23): a hand of four shows at the start; a first deal
           // smaller than the hand is refused (the hand would never fill).
           {"two tiles drawn at the start", "hand size 3 draw 3", "hand size 3 draw 2", Hand, kRefused},
           {"a hand of four", "hand size 3 draw 3", "hand size 4 draw 4", Hand},
           {"no placement phase", "  phase place optional\n  phase draw after place\n", "", PhasePlace},
           // The ruleset's own expectation names `chessme-draw`: a status the mutant cannot
           // report, which the compiler refuses (check_expectations).
           {"the draw named stalemate", "no-legal-move -> draw \"chessme-draw\"",
            "no-legal-move -> draw \"stalemate\"", EndNoLegalMove, kRefused},
           {"a pawn on e2 at the start", "setup \"kc6,", "setup \"kc6,Pe2,", SetupText},
           {"a bounded board", "board unbounded", "board 8 x 8", BoardUnbounded, kRefused},
           {"no adjacency rule", "move-condition non-capture adjacent-to any\n", "\n", MoveCondition,
            kRefused},
           {"no move phase", "  phase move mandatory\n", "", PhaseMove, kRefused},
           {"placements that escape check", "  no-escape-from-check\n", "\n", PlaceNoEscape, kRefused},
           {"placements that promote", "  no-promotion\n", "\n", PlaceNoPromotion, kRefused},
           {"royals left attacked", "  royal-safe\n", "\n", RoyalSafe, kRefused},
           {"no royal", "  royal\n", "\n", Royal, kRefused},
           {"no checkmate rule", "  checkmate -> loss\n", "\n", EndCheckmate, kRefused},
       },
       {
           {EndAgreement, "an agreed draw changes no action or status; it licenses how a record may end"},
       }},
  };
  return table;
}

// Constructs that state no behaviour of their own: metadata, containers whose contents
// are constructs, the expectations a ruleset states about itself, and what it states
// about its game records (read by the record validator, no move changes).
bool container_or_metadata(ConstructId id) {
  static const std::set<ConstructId> ids = {Ruleset,
                                            Title,
                                            Piece,
                                            Turn,
                                            Placement,
                                            Legal,
                                            End,
                                            Expect,
                                            ExpectPerft,
                                            ExpectStatus,
                                            ExpectLegal,
                                            ExpectIllegal,
                                            Records,
                                            RecordName,
                                            RecordTag,
                                            RecordPlacementNotation,
                                            RecordAgreementDraws};
  return ids.count(id) > 0;
}

// Every construct a bundled executable ruleset uses has a mutant that changes it (caught
// by the fuzzer or refused by the compiler), or a stated reason why none can tell.
TEST(MutationSuite, CoversEveryConstructTheRulesetsUse) {
  for (const VariantMutants& vm : mutation_table()) {
    arb::lang::Diagnostics d;
    auto c = arb::lang::compile_file(rules_path(vm.variant), {}, d);
    ASSERT_NE(c.model, nullptr) << d.render();
    std::set<ConstructId> covered;
    for (const Mutant& m : vm.mutants) covered.insert(m.construct);
    for (const auto& [id, why] : vm.uncovered) covered.insert(id);
    for (const auto* u : c.model->all_constructs()) {
      // A parent's constructs are its own suite's business (chess for chessembly).
      if (container_or_metadata(u->id) || !u->loc.src ||
          fs::path(u->loc.src->path).filename() != vm.variant + std::string(".rules"))
        continue;
      EXPECT_TRUE(covered.count(u->id)) << vm.variant << ": no mutant changes `" << u->def().keyword << "` ("
                                        << u->def().doc << ") used at line " << u->loc.line;
    }
  }
}

class MutationSuite : public ::testing::TestWithParam<VariantMutants> {};

TEST_P(MutationSuite, CatchesEveryMutant) {
  const VariantMutants& vm = GetParam();
  auto original = compile_path(rules_path(vm.variant));
  ASSERT_TRUE(original) << vm.variant;
  std::string base = read(rules_path(vm.variant));
  ASSERT_GE(vm.mutants.size(), 8u) << vm.variant << ": the suite wants at least eight mutants per variant";
  int caught = 0, total = 0;
  uint64_t most_games = 0;
  for (const Mutant& m : vm.mutants) {
    ++total;
    std::string text = base;
    size_t at = text.find(m.from);
    ASSERT_NE(at, std::string::npos) << vm.variant << ": " << m.name << ": `" << m.from
                                     << "` not in the ruleset";
    text.replace(at, std::string(m.from).size(), m.to);
    auto program = compile_text(text, vm.variant, !m.refused);
    if (m.refused) {
      EXPECT_FALSE(program) << vm.variant << ": " << m.name << ": the compiler accepts the mutant";
      if (!program) ++caught;
      continue;
    }
    ASSERT_TRUE(program) << vm.variant << ": " << m.name;
    // A mutated start shows against the start the rule text gives (RULINGS 0, 1.1, 2.2-2.3),
    // read by the reference engine.
    {
      auto mutant_start = arb::lang::make_compiled_engine(program);
      auto ref_start = arb::ref::make_reference_engine(vm.variant);
      static const std::map<std::string, std::string> kRuleStart = {
          {"chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
          {"chessembly", "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w - - 0 1"},
          {"chessme", "start"}};
      ref_start->set_position(kRuleStart.at(vm.variant));
      if (mutant_start->position() != ref_start->position()) {
        ++caught;
        std::cout << "  " << vm.variant << " / " << m.name
                  << ": caught at the start: " << mutant_start->position() << " / " << ref_start->position()
                  << "\n";
        continue;
      }
    }
    arb::fuzz::Options o;
    o.seed = 11;
    o.games = vm.games;
    o.strict_acceptance = m.strict;
    auto t0 = std::chrono::steady_clock::now();
    auto r = m.start ? arb::fuzz::run(compiled(program), reference(vm.variant), m.start, o)
                     : fuzz(program, vm.variant, o);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r.divergence) {
      ADD_FAILURE() << vm.variant << ": mutant survived " << vm.games << " games: " << m.name;
      continue;
    }
    const auto& d = *r.divergence;
    // The divergence is the mutation's: it shows on the mutant and not on the original.
    auto mutant_engine = arb::lang::make_compiled_engine(program);
    auto original_engine = arb::lang::make_compiled_engine(original);
    auto ref = arb::ref::make_reference_engine(vm.variant);
    EXPECT_TRUE(arb::fuzz::reproduce(*mutant_engine, *ref, d.position, d.action))
        << m.name << ": the shrunk divergence does not replay: " << arb::fuzz::to_json(d);
    auto on_original = arb::fuzz::reproduce(*original_engine, *ref, d.position, d.action);
    EXPECT_FALSE(on_original) << m.name << ": the bundled ruleset diverges there too: "
                              << arb::fuzz::to_json(*on_original);
    if (on_original) continue;
    ++caught;
    most_games = std::max(most_games, r.games);
    std::cout << "  " << vm.variant << " / " << m.name << ": caught in game " << r.games << " (" << secs
              << " s): " << d.what << " at " << d.position << (d.action.empty() ? "" : " after " + d.action)
              << (d.diff.empty() ? " " + d.left + " / " + d.right : " " + d.diff) << "\n";
  }
  std::cout << "mutation score " << vm.variant << ": " << caught << "/" << total << " (budget " << vm.games
            << " games, the slowest caught in game " << most_games << ")\n";
  EXPECT_EQ(caught, total);
}

INSTANTIATE_TEST_SUITE_P(Variants, MutationSuite, ::testing::ValuesIn(mutation_table()),
                         [](const ::testing::TestParamInfo<VariantMutants>& info) {
                           return std::string(info.param.variant);
                         });

// The situations the rules speak of, made on purpose (mutate.hpp: targeted_position).
TEST(Mutate, TargetedMutationsReachRareSituations) {
  const std::string fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  std::mt19937_64 rng(3);
  arb::fuzz::Choose choose = [&](uint64_t n) { return rng() % n; };
  std::map<std::string, int> kinds;
  for (int i = 0; i < 400; ++i) {
    std::string what;
    auto m = arb::fuzz::targeted_position(fen, "", choose, &what);
    if (!m) continue;
    std::string kind = what.substr(0, what.find(' '));
    ++kinds[kind];
    EXPECT_EQ(arb::fuzz::detect_format(*m), arb::fuzz::TextFormat::Fen) << *m;
    if (kind == "ending") {
      std::string board = m->substr(0, m->find(' '));
      EXPECT_EQ(std::count(board.begin(), board.end(), 'K'), 1) << *m;
      EXPECT_EQ(std::count(board.begin(), board.end(), 'k'), 1) << *m;
      EXPECT_LE(std::count_if(board.begin(), board.end(), [](char c) { return std::isalpha(c); }), 4) << *m;
      if (std::count_if(board.begin(), board.end(), [](char c) { return std::isalpha(c); }) <= 3) {
        EXPECT_NE(arb::fuzz::material(*m), "") << *m;
      }
    }
    if (kind == "en-passant") {
      std::istringstream in(*m);
      std::string board, side, castling, ep;
      in >> board >> side >> castling >> ep;
      EXPECT_EQ(ep.size(), 2u) << *m;
      EXPECT_EQ(ep[1], side == "b" ? '3' : '6') << *m;
    }
  }
  for (const char* k : {"ending", "castling", "en-passant", "promotion", "halfmove"})
    EXPECT_GT(kinds[k], 20) << k;
  // An en-passant field the engines accept, and a capture that uses it.
  auto ref = arb::ref::make_reference_engine("chess");
  int with_ep_capture = 0;
  for (int i = 0; i < 300; ++i) {
    std::string what;
    auto m = arb::fuzz::targeted_position(fen, "", choose, &what);
    if (!m || what.rfind("en-passant", 0) != 0) continue;
    try {
      ref->set_position(*m);
    } catch (const arb::PositionError&) {
      continue;
    }
    std::vector<arb::Action> acts;
    ref->legal_actions(acts);
    for (const auto& a : acts) {
      auto info = ref->describe(a);
      if (!info.steps.empty() && info.steps[0].capture() && info.steps[0].removed[0].at != info.steps[0].to)
        ++with_ep_capture;
    }
  }
  EXPECT_GT(with_ep_capture, 5);
  // ChessMe: full and empty hands, empty piles.
  const std::string me = arb::chessme_start(1);
  std::map<std::string, int> me_kinds;
  for (int i = 0; i < 300; ++i) {
    std::string what;
    if (auto m = arb::fuzz::targeted_position(me, "", choose, &what)) {
      ++me_kinds[what.substr(0, what.find(','))];
      try {  // a text may be refused (too many tiles of a kind): the engines judge it
        arb::parse_chessme(*m);
        ++me_kinds["parsed"];
      } catch (const arb::PositionError&) {
      }
    }
  }
  EXPECT_GT(me_kinds["hand full"], 10);
  EXPECT_GT(me_kinds["hand empty"], 10);
  EXPECT_GT(me_kinds["piles empty"], 10);
  EXPECT_GT(me_kinds["parsed"], 200);
  EXPECT_EQ(arb::fuzz::reversed_move("g1f3"), "f3g1");
  EXPECT_EQ(arb::fuzz::reversed_move("(1,0)b1"), "b1(1,0)");
  EXPECT_FALSE(arb::fuzz::reversed_move("e7e8q"));
  EXPECT_FALSE(arb::fuzz::reversed_move("c2c3,B@c2"));
}

// The coverage report counts the rare situations, which plain games never reach.
TEST(Fuzz, CoverageCountsEndsClaimsAndEndings) {
  auto program = compile_path(rules_path("chess"));
  ASSERT_TRUE(program);
  arb::fuzz::Options o;
  o.seed = 1;
  o.games = fast() ? 60 : 300;
  o.coverage = true;
  auto r = fuzz(program, "chess", o);
  EXPECT_FALSE(r.divergence);
  auto games = [&](const std::string& k) {
    auto it = r.coverage.games.find(k);
    return it == r.coverage.games.end() ? 0 : it->second;
  };
  for (const char* k :
       {"end: insufficient-material", "claim: threefold", "claim: fifty-move", "material: bare kings",
        "material: one minor", "offered: castling", "offered: en passant", "played: promotion", "shuffle"})
    EXPECT_GT(games(k), 0u) << k;
  std::string text = arb::fuzz::coverage_text(r);
  EXPECT_NE(text.find("games/1000"), std::string::npos);
  EXPECT_TRUE(arb::fuzz::coverage_json(r).at("claim: threefold").at("games_per_1000").is_number());
  // Unbiased games: no repetition claim, no insufficient-material end.
  o.bias = false;
  auto plain = fuzz(program, "chess", o);
  EXPECT_EQ(plain.coverage.games.count("claim: threefold"), 0u);
  EXPECT_EQ(plain.coverage.games.count("end: insufficient-material"), 0u);
}

// parallel_for, the project's one fan-out: every job runs once, the first exception reaches
// the caller after all jobs ended, and it asks the others to stop.
TEST(ParallelFor, RunsEveryJobAndPassesTheFirstErrorOn) {
  std::vector<std::atomic<int>> ran(8);
  int threads = arb::parallel_for(8, [&](int j, std::stop_token) { ++ran[static_cast<size_t>(j)]; });
  EXPECT_GE(threads, 1);
  for (auto& r : ran) EXPECT_EQ(r.load(), 1);
  std::atomic<int> stopped{0};
  EXPECT_THROW(arb::parallel_for(4,
                                 [&](int j, std::stop_token stop) {
                                   if (j == 2) throw std::runtime_error("job 2 failed");
                                   auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
                                   while (!stop.stop_requested() && std::chrono::steady_clock::now() < until)
                                     std::this_thread::sleep_for(std::chrono::milliseconds(1));
                                   if (stop.stop_requested()) ++stopped;
                                 }),
               std::runtime_error);
  EXPECT_EQ(stopped.load(), 3);  // every other job saw the stop request instead of running 20 s
}

namespace {
// An engine that reports only verdicts, as Fairy-Stockfish's UCI does: it plays as the
// compiled chess engine it wraps but names every finished game's end `no-legal-move`.
class VerdictOnly final : public arb::Engine {
 public:
  explicit VerdictOnly(std::unique_ptr<arb::Engine> e, bool names) : e_(std::move(e)), names_(names) {}
  std::string name() const override { return "verdict-only"; }
  arb::GameConfig config() const override { return e_->config(); }
  void set_position(std::string_view t) override { e_->set_position(t); }
  std::string position() const override { return e_->position(); }
  void legal_actions(std::vector<arb::Action>& out) override { e_->legal_actions(out); }
  void apply(const arb::Action& a) override { e_->apply(a); }
  void undo() override { e_->undo(); }
  arb::Status status() override {
    arb::Status s = e_->status();
    if (s.result != arb::Result::Ongoing) {
      s.end = arb::Termination::NoLegalMove;
      s.reason = "no-legal-move";
    }
    return s;
  }
  bool names_end_condition() const override { return names_; }
  uint64_t hash() const override { return e_->hash(); }
  arb::Color side_to_move() const override { return e_->side_to_move(); }
  arb::ActionInfo describe(const arb::Action& a) const override { return e_->describe(a); }
  std::unique_ptr<arb::Engine> clone() const override {
    return std::make_unique<VerdictOnly>(e_->clone(), names_);
  }

 private:
  std::unique_ptr<arb::Engine> e_;
  bool names_;
};
}  // namespace

// Against an engine that names no end condition, the verdict is compared and the end's name
// is not; the engine says so itself (Engine::names_end_condition), not its name.
TEST(CompareNode, VerdictOnlyEnginesCompareVerdicts) {
  const char* mate = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";
  auto compiled = testing_helpers::compiled_at("chess", mate);
  VerdictOnly quiet(testing_helpers::compiled_at("chess", mate), false);
  EXPECT_FALSE(arb::fuzz::compare_node(*compiled, quiet).has_value());
  // The same engine claiming to name its ends is caught naming the wrong one.
  VerdictOnly loud(testing_helpers::compiled_at("chess", mate), true);
  auto d = arb::fuzz::compare_node(*compiled, loud);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->what, "status");
  // A different verdict is caught against it: the mate (1-0) against a stalemate (a draw),
  // both without actions.
  VerdictOnly quiet_stale(testing_helpers::compiled_at("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), false);
  auto v = arb::fuzz::compare_node(*compiled, quiet_stale);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->what, "status");
}
