// Stage 3: semantic checks. The vocabulary of the language lives here: which keyword may
// stand where, with which arguments, and what it means in the model.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "arbiter/lang/betza.hpp"
#include "arbiter/lang/model.hpp"
#include "arbiter/lang/search_path.hpp"
#include "arbiter/nostress_text.hpp"
#include "arbiter/numbers.hpp"

namespace arb::lang {

const PieceDef* Model::piece(char letter) const {
  for (const auto& p : pieces)
    if (p.letter == letter) return &p;
  return nullptr;
}
const ConstructUse* PieceDef::find(ConstructId id) const {
  for (const auto& u : constructs)
    if (u.id == id) return &u;
  return nullptr;
}
std::vector<const ConstructUse*> Model::all_constructs() const {
  std::vector<const ConstructUse*> out;
  for (const auto& u : constructs) out.push_back(&u);
  for (const auto& p : pieces)
    for (const auto& u : p.constructs) out.push_back(&u);
  return out;
}
const OptionDef* Model::option(const std::string& n) const {
  for (const auto& o : options)
    if (o.name == n) return &o;
  return nullptr;
}

namespace {

const std::vector<std::string> kResults = {"loss", "win", "draw"};

class Checker {
 public:
  Checker(Model& m, Diagnostics& d, const std::map<std::string, std::string>& overrides)
      : m_(m), d_(d), overrides_(overrides) {}

  void top(const std::vector<Stmt>& stmts, bool is_root) {
    for (const Stmt& s : stmts) statement(s, is_root);
  }

  std::set<std::string> used_overrides;

 private:
  Model& m_;
  Diagnostics& d_;
  const std::map<std::string, std::string>& overrides_;

  // ---- argument helpers -------------------------------------------------------------
  Value resolve(const Value& v) {
    if (v.kind != ValueKind::Word || v.text.empty() || v.text[0] != '$') return v;
    std::string name = v.text.substr(1);
    const OptionDef* o = m_.option(name);
    if (!o) {
      std::vector<std::string> names;
      for (const auto& op : m_.options) names.push_back(op.name);
      d_.error(v.loc, "unknown option `" + name + "`", did_you_mean(name, names));
      return v;
    }
    Value r = v;
    r.text = o->value;
    bool numeric = !o->value.empty() && std::all_of(o->value.begin(), o->value.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c));
    });
    if (numeric) {
      auto n = arb::parse_integer(o->value, 0, 999999999999999);
      if (!n) {
        d_.error(v.loc, "option `" + name + "` = " + o->value + ": number too large (at most 15 digits)");
        return v;
      }
      r.kind = ValueKind::Number;
      r.num = *n;
    }
    return r;
  }
  bool want_args(const Stmt& s, size_t lo, size_t hi, const char* form) {
    if (s.args.size() < lo || s.args.size() > hi) {
      Loc l = s.args.size() > hi ? s.args[hi].loc : s.loc;
      d_.error(l, "`" + s.keyword + "` takes " + form, "write it as `" + s.keyword + " " + form + "`");
      return false;
    }
    return true;
  }
  void no_block(const Stmt& s) {
    if (s.has_block) d_.error(s.loc, "`" + s.keyword + "` takes no block");
  }
  void unknown(const Stmt& s, const std::vector<std::string>& allowed, const char* where) {
    d_.error(s.loc, "unknown " + std::string(where) + " `" + s.keyword + "`",
             did_you_mean(s.keyword, allowed));
  }
  std::optional<int> number(const Value& raw, const char* what, long long lo = 0, long long hi = 1000000) {
    Value v = resolve(raw);
    if (v.kind != ValueKind::Number) {
      d_.error(v.loc, std::string("expected ") + what + ", found `" + v.text + "`");
      return std::nullopt;
    }
    if (v.num < lo || v.num > hi) {
      d_.error(v.loc,
               std::string(what) + " must be between " + std::to_string(lo) + " and " + std::to_string(hi));
      return std::nullopt;
    }
    return static_cast<int>(v.num);
  }
  std::optional<Range> ranks(const Value& raw) {
    Value v = resolve(raw);
    // A rank is an int (the grid's coordinates are int32): a larger number is refused
    // here, never wrapped to some other rank.
    auto out_of_int = [&](long long n) {
      if (n >= INT32_MIN && n <= INT32_MAX) return false;
      d_.error(v.loc, "rank " + std::to_string(n) + " is out of range",
               "a rank is between -2147483648 and 2147483647");
      return true;
    };
    if (v.kind == ValueKind::Number) {
      if (out_of_int(v.num)) return std::nullopt;
      return Range{static_cast<int>(v.num), static_cast<int>(v.num)};
    }
    if (v.kind == ValueKind::Range) {
      if (out_of_int(v.lo) || out_of_int(v.hi)) return std::nullopt;
      if (v.lo > v.hi) {
        d_.error(v.loc, "empty rank range", "write the lower rank first");
        return std::nullopt;
      }
      return Range{static_cast<int>(v.lo), static_cast<int>(v.hi)};
    }
    d_.error(v.loc, "expected a rank or a range such as `1..4`, found `" + v.text + "`");
    return std::nullopt;
  }
  bool piece_letter(const Value& v, char& out) {
    if (v.kind != ValueKind::Word || v.text.size() != 1 ||
        !std::isupper(static_cast<unsigned char>(v.text[0]))) {
      d_.error(v.loc, "expected a piece letter (one upper-case letter), found `" + v.text + "`");
      return false;
    }
    out = v.text[0];
    return true;
  }
  // `deck shared { card NAME LETTER*COUNT ... again ... }`: every argument checked where it
  // stands; the letters are checked against the pieces by the compile step (card_compile.cpp).
  void deck(const Stmt& s) {
    static const char* kForm = "write it as `deck shared { card NAME LETTER*COUNT ... }`";
    m_.deck.clear();
    m_.deck_cards.clear();
    m_.deck_loc = s.loc;
    if (s.args.empty())
      d_.error(s.loc, "`deck` needs `shared` (one draw pile for both players)", kForm);
    else if (!s.args[0].is("shared"))
      d_.error(s.args[0].loc, "`deck` takes shared, found `" + s.args[0].text + "`", kForm);
    for (size_t i = 1; i < s.args.size(); ++i)
      d_.error(s.args[i].loc, "unexpected `" + s.args[i].text + "` in `deck`", kForm);
    if (!s.has_block) d_.error(s.loc, "`deck` needs a block of `card` statements", kForm);
    for (const Stmt& c : body(s)) dispatch(Scope::Deck, c);
    use(ConstructId::Deck, s.loc);
  }
  // `card NAME LETTER*COUNT`
  void card(const Stmt& c) {
    use(ConstructId::Card, c.loc);
    static const char* kCard =
        "write it as `card NAME LETTER*COUNT`, e.g. `card pawn P*11` or `card again Again*6`";
    if (c.args.size() != 2) {
      d_.error(c.args.size() > 2 ? c.args[2].loc : c.loc,
               c.args.size() > 2 ? "unexpected `" + c.args[2].text + "` in `card`"
                                 : std::string("`card` takes a name and `LETTER*COUNT`"),
               kCard);
      return;
    }
    const Value& name = c.args[0];
    if (name.kind != ValueKind::Word) {
      d_.error(name.loc, "a card's name is a word, found `" + name.text + "`", kCard);
      return;
    }
    const Value& v = c.args[1];
    const std::string& t = v.text;
    size_t star = t.find('*');
    std::string letter = t.substr(0, star), n = star == std::string::npos ? "" : t.substr(star + 1);
    Loc nloc = v.loc;
    if (star != std::string::npos) nloc.col += static_cast<int>(star + 1);
    if (v.kind != ValueKind::Word || letter.empty() ||
        !(letter == "Again" || (letter.size() == 1 && std::isupper(static_cast<unsigned char>(letter[0]))))) {
      d_.error(v.loc, "expected a piece letter or `Again`, found `" + t + "`", kCard);
      return;
    }
    if (n.empty() || !std::all_of(n.begin(), n.end(),
                                  [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); })) {
      d_.error(v.loc,
               "expected `LETTER*COUNT` with a count of 1.." + std::to_string(kNoStressMaxKindCount) +
                   ", found `" + t + "`",
               kCard);
      return;
    }
    int count = n.size() > 3 ? kNoStressMaxKindCount + 1 : std::stoi(n);
    if (count < 1 || count > kNoStressMaxKindCount) {
      d_.error(nloc, "a card count must be 1.." + std::to_string(kNoStressMaxKindCount) + ", found " + n,
               "leave a kind out of the deck instead of writing it with no cards");
      return;
    }
    const char l = letter == "Again" ? 'A' : letter[0];
    bool twice = false;
    for (const Model::DeckCard& o : m_.deck_cards) twice = twice || o.letter == l;
    if (twice) {
      d_.error(v.loc, "the cards `" + letter + "` are listed twice in the deck",
               "state each kind once, with its count");
      return;
    }
    m_.deck_cards.push_back(Model::DeckCard{name.text, l, count, v.loc});
    m_.deck.append(static_cast<size_t>(count), l);
  }

  // Letters such as `Q R*2 P*8` into a string of letters (at most kMaxLetterCount of a kind).
  static constexpr int64_t kMaxLetterCount = 999;
  std::string letter_list(const std::vector<Value>& args, size_t from) {
    std::string out;
    for (size_t i = from; i < args.size(); ++i) {
      const Value& v = args[i];
      std::string t = v.text;
      int count = 1;
      size_t star = t.find('*');
      if (star != std::string::npos) {
        std::string n = t.substr(star + 1);
        if (n.empty() || !std::all_of(n.begin(), n.end(),
                                      [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
          d_.error(v.loc, "expected `LETTER*COUNT`, found `" + t + "`");
          continue;
        }
        auto c = arb::parse_integer(n, 1, kMaxLetterCount);
        if (!c) {
          d_.error(v.loc, "a count must be 1.." + std::to_string(kMaxLetterCount) + ", found `" + n +
                              "` in `" + t + "`");
          continue;
        }
        count = static_cast<int>(*c);
        t = t.substr(0, star);
      }
      if (v.kind != ValueKind::Word || t.empty() || !std::isupper(static_cast<unsigned char>(t[0])) ||
          (t.size() > 1 && t != "Again")) {
        d_.error(v.loc, "expected a piece letter, found `" + v.text + "`");
        continue;
      }
      for (int k = 0; k < count; ++k) out += t.size() == 1 ? t : "*";
    }
    return out;
  }
  // Records a use of a custom construct (its payload is in the model's fields).
  void use(ConstructId id, const Loc& loc) { m_.constructs.push_back(ConstructUse{id, loc, {}, group_}); }
  // Checks a schema construct and records its typed use; false on errors.
  std::optional<ConstructUse> typed(const ConstructDef& def, const Stmt& s) {
    auto u = check_construct(def, s, d_, [this](const Value& v) { return resolve(v); });
    if (u) u->group = group_;
    // A region argument names a region declared before (or a built-in one).
    if (u)
      for (size_t i = 0; i < def.args.size(); ++i)
        if (def.args[i].type == ArgType::Region && u->args[i].present && !known_region(u->args[i].text)) {
          unknown_region(u->args[i].text, u->args[i].loc);
          return std::nullopt;
        }
    return u;
  }
  bool known_region(const std::string& name) const {
    const auto& b = builtin_regions();
    if (std::find(b.begin(), b.end(), name) != b.end()) return true;
    return std::any_of(m_.regions.begin(), m_.regions.end(),
                       [&](const RegionDef& r) { return r.name == name; });
  }
  void unknown_region(const std::string& name, const Loc& loc) {
    std::vector<std::string> names = builtin_regions();
    for (const RegionDef& r : m_.regions) names.push_back(r.name);
    std::string hint = did_you_mean(name, names);
    d_.error(loc, "unknown region `" + name + "`",
             hint.empty() ? "declare it before with `region " + name +
                                " AREA...` (squares `e4`, rectangles "
                                "`d1-f3`, `ranks 1..5`)"
                          : hint);
  }

  // `region NAME AREA... [mirrored]`: AREA is a square `e4`, a rectangle `d1-f3` (corners)
  // or `ranks R` (`ranks 1..5`, `rank 8`), White's view; Black's squares are the same, or
  // with `mirrored` the same seen from Black's side.
  void region(const Stmt& s) {
    const char* form =
        "write it as `region NAME AREA... [mirrored|rotated]`, AREA a square `e4`, a rectangle `d1-f3` or "
        "`ranks "
        "1..5`";
    use(ConstructId::RegionDecl, s.loc);
    if (s.has_block) d_.error(s.loc, "`region` takes no block", form);
    if (s.args.empty() || s.args[0].kind != ValueKind::Word) {
      d_.error(s.args.empty() ? s.loc : s.args[0].loc, "`region` needs a name", form);
      return;
    }
    RegionDef r;
    r.name = s.args[0].text;
    r.loc = s.loc;
    const auto& b = builtin_regions();
    if (std::find(b.begin(), b.end(), r.name) != b.end()) {
      d_.error(s.args[0].loc, "`" + r.name + "` is a built-in region", "choose another name");
      return;
    }
    // A square `e4`: file letter a..p, rank 1..99.
    auto square = [](const std::string& t, int& x, int& y) {
      if (t.size() < 2 || t.size() > 3 || t[0] < 'a' || t[0] > 'p') return false;
      for (size_t i = 1; i < t.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(t[i]))) return false;
      x = t[0] - 'a';
      y = std::stoi(t.substr(1)) - 1;
      return y >= 0;
    };
    bool ok = true;
    for (size_t i = 1; i < s.args.size(); ++i) {
      const Value& v = s.args[i];
      int x0, y0, x1, y1;
      if (v.is("mirrored")) {
        r.mirrored = true;
      } else if (v.is("rotated")) {
        r.rotated = true;
      } else if (v.is("ranks") || v.is("rank")) {
        if (i + 1 >= s.args.size()) {
          d_.error(v.loc, "`" + v.text + "` needs a rank or a range such as `1..5`", form);
          ok = false;
          break;
        }
        auto rg = ranks(s.args[++i]);
        if (!rg) {
          ok = false;
          continue;
        }
        r.rects.push_back({0, rg->lo - 1, RegionDef::kAllFiles, rg->hi - 1, s.args[i].loc});
      } else if (v.kind == ValueKind::Word && square(v.text, x0, y0)) {
        r.rects.push_back({x0, y0, x0, y0, v.loc});
      } else if (size_t dash = v.text.find('-'); v.kind == ValueKind::Word && dash != std::string::npos &&
                                                 square(v.text.substr(0, dash), x0, y0) &&
                                                 square(v.text.substr(dash + 1), x1, y1)) {
        r.rects.push_back({std::min(x0, x1), std::min(y0, y1), std::max(x0, x1), std::max(y0, y1), v.loc});
      } else {
        d_.error(v.loc, "unexpected `" + v.text + "` in `region`", form);
        ok = false;
      }
    }
    if (ok && r.rects.empty()) d_.error(s.loc, "`region " + r.name + "` has no squares", form);
    if (!ok || r.rects.empty()) return;
    for (RegionDef& e : m_.regions)
      if (e.name == r.name) {
        e = r;
        return;
      }
    m_.regions.push_back(r);
  }
  // A new top-level statement replaces the parent's uses of the same group.
  void begin_group(const std::string& g) {
    group_ = g;
    std::erase_if(m_.constructs, [&](const ConstructUse& u) { return u.group == g; });
  }
  std::string group_;

  // ---- table dispatch -----------------------------------------------------------------
  // Every statement is looked up in the construct table (construct.hpp) by the scope it
  // stands in and its keyword. Not there: an error with the scope's closest keyword. A
  // schema construct: checked against its schema, its typed use applied to the model
  // (apply()). A construct with a grammar of its own: its reader (reader()). Constructs
  // sharing a keyword (the forms of `board`, `setup`, `promote`, `phase`, ...) share the
  // reader of the first form, which tells the forms apart.
  using Reader = void (Checker::*)(const Stmt&);
  static const char* scope_noun(Scope sc) {
    switch (sc) {
      case Scope::Top:
        return "statement";
      case Scope::Piece:
        return "piece statement";
      case Scope::Turn:
        return "turn statement";
      case Scope::Placement:
        return "placement statement";
      case Scope::Legal:
        return "legality condition";
      case Scope::End:
        return "end condition";
      case Scope::Army:
        return "army statement";
      case Scope::Deck:
        return "deck statement";
      case Scope::Expect:
        return "expectation";
      case Scope::Castling:
        return "castling statement";
      case Scope::Records:
        return "records statement";
    }
    return "statement";
  }
  // The reader of each construct with a grammar of its own (nullptr for schema constructs).
  static Reader reader(ConstructId id) {
    using enum ConstructId;
    switch (id) {
      case Ruleset:
        return &Checker::ruleset_stmt;
      case BoardRect:
      case BoardUnbounded:
        return &Checker::board;
      case Option:
        return &Checker::option_stmt;
      case Piece:
        return &Checker::piece;
      case Castling:
      case CastlingNone:
        return &Checker::castling;
      case SetupText:
      case SetupEmpty:
      case SetupChess960:
        return &Checker::setup;
      case Reserve:
        return &Checker::reserve;
      case Pile:
        return &Checker::pile;
      case Deck:
        return &Checker::deck;
      case Turn:
        return &Checker::turn;
      case Placement:
        return &Checker::placement;
      case Legal:
        return &Checker::legal;
      case End:
        return &Checker::end;
      case Expect:
        return &Checker::expect;
      case Army:
        return &Checker::army;
      case When:
        return &Checker::when_stmt;
      case Records:
        return &Checker::records;
      case FairyStockfish:
        return &Checker::fairy_stockfish;
      case RegionDecl:
        return &Checker::region;
      case ActionMove:
      case ActionPlace:
        return &Checker::action_stmt;
      case PhaseMove:
      case PhasePlace:
      case PhaseDraw:
      case PhaseRoyalMove:
      case PhaseDrawCard:
      case PhasePlayCard:
      case PhaseRedraw:
        return &Checker::phase_stmt;
      case EndCheckmate:
      case EndStalemate:
      case EndInsufficient:
      case EndNoLegalMove:
      case EndRoyalCapture:
      case EndRegionReached:
      case EndAgreement:
        return &Checker::end_rule;
      case Claim:
        return &Checker::claim;
      case Betza:
        return &Checker::betza_stmt;
      case Royal:
        return &Checker::royal_stmt;
      case Initial:
        return &Checker::initial_stmt;
      case Forbidden:
        return &Checker::forbidden_stmt;
      case PromoteOnRank:
      case PromoteByExchange:
        return &Checker::promote_stmt;
      case Card:
        return &Checker::card;
      case CastlingRook:
        return &Checker::castling_rook;
      case CastlingKing:
        return &Checker::castling_king;
      case CastlingKingSide:
      case CastlingQueenSide:
        return &Checker::castling_side;
      case ExpectPerft:
      case ExpectStatus:
      case ExpectLegal:
      case ExpectIllegal:
        return &Checker::expect_line;
      case RecordName:
        return &Checker::record_name;
      case RecordTag:
        return &Checker::record_tag;
      default:
        return nullptr;
    }
  }
  void dispatch(Scope sc, const Stmt& s) {
    const std::vector<const ConstructDef*> defs = find_constructs(sc, s.keyword);
    if (defs.empty()) {
      unknown(s, keywords(sc), scope_noun(sc));
      return;
    }
    if (!defs[0]->custom) {  // one schema construct per keyword and scope (construct_test)
      if (auto u = typed(*defs[0], s)) apply(std::move(*u));
      return;
    }
    Reader r = reader(defs[0]->id);
    if (!r) throw std::logic_error("construct `" + s.keyword + "` has no reader in sema.cpp");
    (this->*r)(s);
  }
  // The model payload of a checked schema construct: its typed use, and the model fields
  // the later stages read (a piece's uses go to the piece being read).
  void apply(ConstructUse u) {
    using enum ConstructId;
    switch (u.id) {
      case Title:
        m_.title = u.arg("").text;
        break;
      case Hand:
        m_.hand_loc = u.loc;
        m_.hand_size = static_cast<int>(u.arg("size").num);
        m_.hand_draw = u.has("draw") ? static_cast<int>(u.arg("draw").num) : m_.hand_size;
        break;
      case MoveCondition:
        m_.adjacency_rule = true;
        break;
      case RoyalSafe:
        m_.royal_safe = true;
        break;
      case RoyalsApart:
        m_.royals_apart = true;
        break;
      case RoyalsNotFacing:
        m_.royals_not_facing = true;
        break;
      case TurnPass:  // a statement of the turn (the compile step wants `action move` with it)
        turn_any_ = true;
        break;
      case DupleCheck:
        m_.duple_check = true;
        break;
      case NoCheckGiven:
        m_.no_check_given = true;
        break;
      case PlaceRegion:
        m_.place_ranks = Range{u.arg("ranks").lo, u.arg("ranks").hi};
        break;
      case PlaceFirstRoyal:
        m_.place_first_royal = true;
        break;
      case PlacePawnBeside:
        m_.place_pawn_beside = true;
        break;
      case PlaceOtherBehind:
        m_.place_other_behind = true;
        break;
      case PlaceNoEscape:
        m_.place_no_escape = true;
        break;
      case PlaceNoPromotion:
        m_.place_no_promotion = true;
        break;
      case RecordPlacementNotation:
        m_.records.piece_first = u.arg("").text == "piece-first";
        break;
      case RecordAgreementDraws:
        m_.records.agreement_draws = u.arg("").text == "yes";
        break;
      case ArmyPromoteTo:
        for (const std::string& w : u.arg("").words) {
          if (!m_.piece(w[0])) {
            d_.error(u.arg("").loc, "`promote-to " + w + "`: no piece has the letter `" + w + "`");
            continue;
          }
          army_->promote_to.push_back(w[0]);
        }
        break;
      case ArmyCastles:
        army_->castles = true;
        break;
      case ArmyKingTurn:
        army_->king_turn = true;
        break;
      case CastlingRank:
        m_.castling_rank = static_cast<int>(u.arg("").num);
        break;
      case CastlingField:
        m_.castling_shredder = u.arg("").text == "shredder";
        break;
      default:
        break;
    }
    if (u.def().scope == Scope::Piece) {
      if (piece_->find(u.id))
        d_.error(u.loc, "`" + u.def().keyword + "` stated twice for piece `" + piece_->name + "`");
      else
        piece_->constructs.push_back(std::move(u));
      return;
    }
    m_.constructs.push_back(std::move(u));
  }
  bool is_root_ = true;
  PieceDef* piece_ = nullptr;  // the piece whose block is read
  ArmyDef* army_ = nullptr;    // the army whose block is read
  bool turn_any_ = false;      // the `turn` block read an action or a phase

  // ---- statements ---------------------------------------------------------------------
  void statement(const Stmt& s, bool is_root) {
    const std::string& k = s.keyword;
    is_root_ = is_root;
    if (k == "when") {
      when(s, is_root);
      return;
    }
    // Statements that merge by name keep one group per name; the others replace the
    // parent's statement of the same keyword.
    if (k == "option" || k == "army" || k == "piece" || k == "region")
      begin_group(k + " " + (s.args.empty() ? "" : s.args[0].text));
    else
      begin_group(k);
    dispatch(Scope::Top, s);
  }
  void when_stmt(const Stmt& s) { when(s, is_root_); }
  void ruleset_stmt(const Stmt& s) {
    // Handled by the loader (name and `extends`).
    if (s.args.empty())
      d_.error(s.loc, "`ruleset` needs a name", "write it as `ruleset NAME [extends PARENT]`");
    if (is_root_ && !s.args.empty()) {
      m_.name = s.args[0].text;
      m_.name_loc = s.args[0].loc;
    }
    use(ConstructId::Ruleset, s.loc);
  }
  void option_stmt(const Stmt& s) {
    option(s);
    use(ConstructId::Option, s.loc);
  }
  void reserve(const Stmt& s) {
    no_block(s);
    m_.reserve = letter_list(s.args, 0);
    m_.reserve_loc = s.loc;
    if (m_.reserve.empty())
      d_.error(s.loc, "`reserve` needs the pieces each side holds", "e.g. `reserve K Q R*2`");
    use(ConstructId::Reserve, s.loc);
  }
  void pile(const Stmt& s) {
    std::vector<Value> letters;
    for (size_t i = 0; i < s.args.size(); ++i) {
      if (s.args[i].is("shuffled")) {
        m_.pile_shuffled = true;
        if (i + 1 < s.args.size() && s.args[i + 1].is("seed")) {
          if (i + 2 >= s.args.size()) {
            d_.error(s.args[i + 1].loc, "`seed` needs a number");
          } else if (auto n = number(s.args[i + 2], "a seed", 0, 2000000000)) {
            m_.pile_seed = static_cast<uint64_t>(*n);
          }
          i += 2;
        }
        continue;
      }
      letters.push_back(s.args[i]);
    }
    m_.pile = letter_list(letters, 0);
    m_.pile_loc = s.loc;
    if (m_.pile.empty()) d_.error(s.loc, "`pile` needs the tiles of each side's pile");
    use(ConstructId::Pile, s.loc);
  }
  void fairy_stockfish(const Stmt& s) {
    // One word, the variant's UCI name: letters, digits, `-` and `_` (what a UCI option
    // value and an ini section name can hold).
    if (want_args(s, 1, 1, "NAME")) {
      const Value& v = s.args[0];
      const bool word = !v.text.empty() && std::all_of(v.text.begin(), v.text.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_';
      });
      if ((v.kind != ValueKind::Word && v.kind != ValueKind::String) || !word) {
        d_.error(
            v.loc,
            "`fairy-stockfish` takes the variant's name (letters, digits, - and _), found `" + v.text + "`",
            "write it as `fairy-stockfish knightmate`");
      } else {
        m_.fsf_variant = v.text;
        m_.fsf_variant_of = m_.name;
        m_.fsf_loc = v.loc;
      }
    }
    use(ConstructId::FairyStockfish, s.loc);
  }

  // `when OPTION = VALUE { ... }` / `when OPTION != VALUE { ... }`: the block's statements
  // are read in place, as statements of the block the `when` stands in (the top level, a
  // piece, `end`, `legal`, an army, ...), when the option (as --set leaves it) has (or has
  // not) that value; otherwise they are skipped. `when` blocks nest. The option must be
  // declared before, and the value must be one it may take. Returns whether the block is
  // read (false after an error).
  bool when_holds(const Stmt& s) {
    const char* form = "write it as `when OPTION = VALUE { ... }` or `when OPTION != VALUE { ... }`";
    use(ConstructId::When, s.loc);
    if (s.args.size() != 3 || !(s.args[1].is("=") || s.args[1].is("!="))) {
      d_.error(s.args.empty() ? s.loc : s.args.back().loc,
               "`when` takes `OPTION = VALUE` or `OPTION != VALUE`", form);
      return false;
    }
    if (!s.has_block) {
      d_.error(s.loc, "`when` needs a `{ ... }` block of statements", form);
      return false;
    }
    const bool negate = s.args[1].is("!=");
    const Value& name = s.args[0];
    const Value& value = s.args[2];
    const OptionDef* o = m_.option(name.text);
    if (!o) {
      std::vector<std::string> names;
      for (const auto& op : m_.options) names.push_back(op.name);
      d_.error(
          name.loc, "`when`: unknown option `" + name.text + "`",
          names.empty() ? "declare it first with `option NAME = DEFAULT`" : did_you_mean(name.text, names));
      return false;
    }
    if (!o->choices.empty() &&
        std::find(o->choices.begin(), o->choices.end(), value.text) == o->choices.end()) {
      std::string list;
      for (const auto& c : o->choices) list += (list.empty() ? "" : ", ") + c;
      d_.error(value.loc,
               "`when`: option `" + o->name + "` takes one of " + list + ", not `" + value.text + "`",
               did_you_mean(value.text, o->choices));
      return false;
    }
    // Without `one-of`, the value has the option's type (as `--set` checks it).
    auto numeric = [](const std::string& t) {
      return !t.empty() && std::all_of(t.begin(), t.end(),
                                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    };
    auto boolean = [](const std::string& t) { return t == "true" || t == "false"; };
    if (o->choices.empty() && boolean(o->value) && !boolean(value.text)) {
      d_.error(value.loc, "`when`: option `" + o->name + "` takes true or false, not `" + value.text + "`");
      return false;
    }
    if (o->choices.empty() && numeric(o->value) && !numeric(value.text)) {
      d_.error(value.loc, "`when`: option `" + o->name + "` takes a number, not `" + value.text + "`");
      return false;
    }
    m_.when_tests.push_back(WhenTest{o->name, value.text, negate});
    return (o->value == value.text) != negate;
  }

  // The statements of a block with its `when` blocks read in place (or dropped).
  std::vector<Stmt> body(const std::vector<Stmt>& block) {
    std::vector<Stmt> out;
    for (const Stmt& c : block) {
      if (c.keyword != "when") {
        out.push_back(c);
      } else if (when_holds(c)) {
        for (Stmt& d : body(c.block)) out.push_back(std::move(d));
      }
    }
    return out;
  }
  std::vector<Stmt> body(const Stmt& s) { return body(s.block); }

  void when(const Stmt& s, bool is_root) {
    if (!when_holds(s)) return;
    for (const Stmt& c : s.block) {
      if (c.keyword == "ruleset" || c.keyword == "option") {
        d_.error(c.loc, "`" + c.keyword + "` cannot stand in a `when` block", "state it outside the block");
        continue;
      }
      statement(c, is_root);
    }
  }

  void board(const Stmt& s) {
    no_block(s);
    m_.board_loc = s.loc;
    if (s.args.size() == 1 && s.args[0].is("unbounded")) {
      m_.unbounded = true;
      use(ConstructId::BoardUnbounded, s.loc);
      return;
    }
    use(ConstructId::BoardRect, s.loc);
    if (s.args.size() == 3 && s.args[1].is("x")) {
      auto w = number(s.args[0], "a width", 1, 26), h = number(s.args[2], "a height", 1, 99);
      if (w && h) {
        m_.width = *w;
        m_.height = *h;
        m_.unbounded = false;
      }
      return;
    }
    d_.error(s.loc, "`board` takes `WIDTH x HEIGHT` or `unbounded`", "e.g. `board 8 x 8`");
  }

  void option(const Stmt& s) {
    no_block(s);
    const char* form = "write it as `option NAME = DEFAULT [\"DOC\"] [one-of VALUE...]`";
    if (s.args.size() < 3 || !s.args[1].is("=")) {
      d_.error(s.loc, "`option` takes `NAME = DEFAULT [\"DOC\"] [one-of VALUE...]`", form);
      return;
    }
    OptionDef o{s.args[0].text, s.args[2].text, "", s.loc, {}};
    size_t i = 3;
    if (i < s.args.size() && s.args[i].kind == ValueKind::String) o.doc = s.args[i++].text;
    if (i < s.args.size() && s.args[i].is("one-of")) {
      for (++i; i < s.args.size(); ++i) o.choices.push_back(s.args[i].text);
      if (o.choices.empty())
        d_.error(s.args.back().loc, "`one-of` needs the values the option may take", form);
      if (!o.choices.empty() && std::find(o.choices.begin(), o.choices.end(), o.value) == o.choices.end())
        d_.error(s.args[2].loc, "the default `" + o.value + "` is not one of the option's values", form);
    } else if (i < s.args.size()) {
      d_.error(s.args[i].loc, "unexpected `" + s.args[i].text + "` in `option`", form);
    }
    auto it = overrides_.find(o.name);
    if (it != overrides_.end() && !o.choices.empty()) {
      if (std::find(o.choices.begin(), o.choices.end(), it->second) == o.choices.end()) {
        std::string list;
        for (const auto& c : o.choices) list += (list.empty() ? "" : ", ") + c;
        d_.error(s.args[2].loc, "--set " + o.name + "=" + it->second + ": this option takes one of " + list,
                 did_you_mean(it->second, o.choices));
      } else {
        o.value = it->second;
      }
      used_overrides.insert(o.name);
    } else if (it != overrides_.end()) {
      bool was_num = std::all_of(o.value.begin(), o.value.end(),
                                 [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
      bool is_num = !it->second.empty() && std::all_of(it->second.begin(), it->second.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
      });
      bool was_bool = o.value == "true" || o.value == "false";
      if (was_num && !is_num) {
        d_.error(s.args[2].loc, "--set " + o.name + "=" + it->second + ": this option takes a number");
      } else if (was_bool && it->second != "true" && it->second != "false") {
        d_.error(s.args[2].loc, "--set " + o.name + "=" + it->second + ": this option takes true or false");
      } else {
        o.value = it->second;
      }
      used_overrides.insert(o.name);
    }
    for (auto& e : m_.options)
      if (e.name == o.name) {
        e = o;
        return;
      }
    m_.options.push_back(o);
  }

  void piece(const Stmt& s) {
    if (s.args.size() < 2) {
      d_.error(s.loc, "`piece` takes a name and a letter", "e.g. `piece knight N { betza \"N\" }`");
      return;
    }
    PieceDef p;
    p.name = s.args[0].text;
    p.loc = s.loc;
    if (!piece_letter(s.args[1], p.letter)) return;
    for (size_t i = 2; i < s.args.size(); ++i) {
      if (s.args[i].is("royal"))
        p.royal = true;
      else
        d_.error(s.args[i].loc, "unexpected `" + s.args[i].text + "` after the piece letter",
                 "put it in the piece's block");
    }
    use(ConstructId::Piece, s.loc);
    if (p.royal) p.constructs.push_back(ConstructUse{ConstructId::Royal, s.args[1].loc, {}, group_});
    piece_ = &p;
    for (const Stmt& c : body(s)) dispatch(Scope::Piece, c);
    piece_ = nullptr;
    // `immobile` with moves is the compiler's error (flip_compile.cpp).
    if (p.betza.empty() && !p.find(ConstructId::Teleport) && !p.find(ConstructId::Strike) &&
        !p.find(ConstructId::Immobile))
      d_.error(s.loc, "piece `" + p.name + "` has no moves",
               "add `betza \"...\"`, or `immobile` for a piece only placed");
    for (auto& e : m_.pieces)
      if (e.name == p.name || e.letter == p.letter) {
        if (e.name != p.name)
          d_.error(s.args[1].loc, std::string("letter `") + p.letter + "` is already piece `" + e.name + "`");
        e = p;
        return;
      }
    m_.pieces.push_back(p);
  }

  // ---- piece block ----
  void betza_stmt(const Stmt& c) {
    PieceDef& p = *piece_;
    if (!want_args(c, 1, 1, "\"BETZA\"")) return;
    std::vector<BetzaMove> moves;
    BetzaError err;
    if (!parse_betza(c.args[0].text, moves, err)) {
      Loc l = c.args[0].loc;
      l.col += 1 + static_cast<int>(err.offset);
      l.len = 1;
      d_.error(l, err.message);
      return;
    }
    p.betza.push_back({c.args[0].text, c.args[0].loc});
    p.constructs.push_back(ConstructUse{ConstructId::Betza, c.loc, {}, group_});
  }
  void royal_stmt(const Stmt& c) {
    no_block(c);
    piece_->royal = true;
    piece_->constructs.push_back(ConstructUse{ConstructId::Royal, c.loc, {}, group_});
  }
  void initial_stmt(const Stmt& c) {
    PieceDef& p = *piece_;
    p.constructs.push_back(ConstructUse{ConstructId::Initial, c.loc, {}, group_});
    if (want_args(c, 2, 2, "ranks RANKS") && c.args[0].is("ranks")) {
      p.initial_ranks = ranks(c.args[1]);
    } else if (!c.args.empty() && !c.args[0].is("ranks")) {
      d_.error(c.args[0].loc, "expected `ranks`");
    }
  }
  void forbidden_stmt(const Stmt& c) {
    PieceDef& p = *piece_;
    p.forbidden_loc = c.loc;
    p.constructs.push_back(ConstructUse{ConstructId::Forbidden, c.loc, {}, group_});
    if (want_args(c, 2, 2, "ranks RANKS") && c.args[0].is("ranks")) {
      p.forbidden_ranks = ranks(c.args[1]);
    } else if (!c.args.empty() && !c.args[0].is("ranks")) {
      d_.error(c.args[0].loc, "expected `ranks`");
    }
  }
  void promote_stmt(const Stmt& c) {
    PieceDef& p = *piece_;
    p.promote_loc = c.loc;
    if (c.args.size() >= 3 && c.args[0].is("on") && c.args[1].is("rank")) {
      p.constructs.push_back(ConstructUse{ConstructId::PromoteOnRank, c.loc, {}, group_});
      p.promote_ranks = ranks(c.args[2]);
      if (c.args.size() < 5 || !c.args[3].is("to")) {
        d_.error(c.loc, "`promote on rank N` needs `to LETTERS`", "e.g. `promote on rank 8 to Q R B N`");
        return;
      }
      // `... to LETTERS [for white|black]`: without `for` the choices of both colours.
      size_t end = c.args.size();
      int colour = -1;
      if (end >= 7 && c.args[end - 2].is("for")) {
        if (c.args[end - 1].is("white"))
          colour = 0;
        else if (c.args[end - 1].is("black"))
          colour = 1;
        else
          d_.error(c.args[end - 1].loc, "expected `white` or `black`, found `" + c.args[end - 1].text + "`",
                   "write `promote on rank 8 to Q R B N for black`");
        end -= 2;
      }
      std::string to;
      for (size_t i = 4; i < end; ++i) {
        char l;
        if (piece_letter(c.args[i], l)) to.push_back(l);
      }
      if (colour < 0) {
        p.promote_to = to;
      } else {
        p.promote_to_colour[colour] = to;
        p.promote_colour_set[colour] = true;
        for (char l : to)
          if (p.promote_to.find(l) == std::string::npos) p.promote_to.push_back(l);
      }
    } else if (c.args.size() >= 2 && c.args[0].is("on") && c.args[1].is("enemy-royal-rank")) {
      bool by_exchange = false, from_captured = false;
      for (size_t i = 2; i < c.args.size(); ++i) {
        const Value& v = c.args[i];
        if (v.is("by-exchange"))
          by_exchange = true;
        else if (v.is("optional"))
          p.promote_exchange_optional = true;
        else if (v.is("from") && i + 1 < c.args.size() && c.args[i + 1].is("captured"))
          from_captured = true, ++i;
        else
          d_.error(v.loc, "unexpected `" + v.text + "`",
                   "write `promote on enemy-royal-rank by-exchange from captured [optional]`");
      }
      if (!by_exchange || !from_captured)
        d_.error(c.loc, "promotion on the enemy royal's rank is by exchange for a captured piece",
                 "write `promote on enemy-royal-rank by-exchange from captured [optional]`");
      p.promote_exchange = true;
      p.constructs.push_back(ConstructUse{ConstructId::PromoteByExchange, c.loc, {}, group_});
    } else {
      d_.error(c.loc, "`promote` takes `on rank N to LETTERS` or `on enemy-royal-rank by-exchange ...`");
    }
  }

  void castling(const Stmt& s) {
    m_.castling_loc = s.loc;
    if (s.args.size() == 1 && s.args[0].is("none")) {
      m_.castling = false;
      use(ConstructId::CastlingNone, s.loc);
      return;
    }
    use(ConstructId::Castling, s.loc);
    if (!s.args.empty()) d_.error(s.args[0].loc, "`castling` takes a block or `none`");
    m_.castling = true;
    for (const Stmt& c : body(s)) dispatch(Scope::Castling, c);
  }
  void castling_rook(const Stmt& c) {
    use(ConstructId::CastlingRook, c.loc);
    if (want_args(c, 1, 8, "LETTER...")) {
      m_.castling_rooks.clear();
      for (const Value& v : c.args) {
        char l = 0;
        if (piece_letter(v, l)) m_.castling_rooks.push_back(l);
      }
      if (!m_.castling_rooks.empty()) m_.castling_rook = m_.castling_rooks[0];
    }
  }
  void castling_king(const Stmt& c) {
    use(ConstructId::CastlingKing, c.loc);
    if (want_args(c, 1, 1, "LETTER")) piece_letter(c.args[0], m_.castling_king);
  }
  void castling_side(const Stmt& c) {
    use(c.keyword == "king-side" ? ConstructId::CastlingKingSide : ConstructId::CastlingQueenSide, c.loc);
    if (!want_args(c, 4, 4, "king-to FILE rook-to FILE")) return;
    auto file = [&](const Value& v) -> int {
      if (v.text.size() != 1 || v.text[0] < 'a' || v.text[0] > 'z') {
        d_.error(v.loc, "expected a file letter, found `" + v.text + "`");
        return 0;
      }
      return v.text[0] - 'a';
    };
    if (!c.args[0].is("king-to") || !c.args[2].is("rook-to")) {
      d_.error(c.loc, "expected `king-to FILE rook-to FILE`");
      return;
    }
    int kf = file(c.args[1]), rf = file(c.args[3]);
    if (c.keyword == "king-side") {
      m_.ks_king_to = kf;
      m_.ks_rook_to = rf;
    } else {
      m_.qs_king_to = kf;
      m_.qs_rook_to = rf;
    }
  }

  void setup(const Stmt& s) {
    m_.setup_loc = s.loc;
    if (s.args.size() == 1 && s.args[0].kind == ValueKind::String) {
      m_.setup_text_loc = s.args[0].loc;
      m_.setup_kind = SetupKind::Text;
      m_.setup_text = s.args[0].text;
      use(ConstructId::SetupText, s.loc);
    } else if (s.args.size() == 1 && s.args[0].is("empty")) {
      m_.setup_kind = SetupKind::Empty;
      use(ConstructId::SetupEmpty, s.loc);
    } else if (!s.args.empty() && s.args[0].is("chess960")) {
      m_.setup_kind = SetupKind::Chess960;
      if (s.args.size() == 3 && s.args[1].is("default") && s.args[2].kind == ValueKind::String) {
        m_.setup_text = s.args[2].text;
        m_.setup_text_loc = s.args[2].loc;
      } else if (s.args.size() != 1) {
        d_.error(
            s.args[1].loc, "`setup chess960` takes nothing more, or `default \"TEXT\"`",
            "write `setup chess960 default \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"`");
      }
      use(ConstructId::SetupChess960, s.loc);
    } else {
      d_.error(s.loc, "`setup` takes a position text, `empty`, or `chess960 [default \"TEXT\"]`");
    }
  }

  void turn(const Stmt& s) {
    m_.turn_loc = s.loc;
    m_.action_move = m_.action_place = false;
    m_.phases.clear();
    turn_any_ = false;
    for (const Stmt& c : body(s)) dispatch(Scope::Turn, c);
    if (!turn_any_) d_.error(s.loc, "`turn` needs at least one `action` or `phase`");
  }
  void action_stmt(const Stmt& c) {
    turn_any_ = true;
    for (const Value& v : c.args) {
      if (v.is("move")) {
        m_.action_move = true;
        use(ConstructId::ActionMove, v.loc);
      } else if (v.is("place")) {
        m_.action_place = true;
        use(ConstructId::ActionPlace, v.loc);
      } else if (!v.is("or"))
        d_.error(v.loc, "unknown action `" + v.text + "`", did_you_mean(v.text, {"move", "place"}));
    }
  }
  void phase_stmt(const Stmt& c) {
    turn_any_ = true;
    if (c.args.empty()) {
      d_.error(c.loc, "`phase` needs a name");
      return;
    }
    static const std::vector<std::string> phases = {"move",      "place",     "draw",  "royal-move",
                                                    "draw-card", "play-card", "redraw"};
    if (std::find(phases.begin(), phases.end(), c.args[0].text) == phases.end()) {
      std::string hint = did_you_mean(c.args[0].text, phases);
      if (hint.empty()) {
        hint = "phases:";
        for (const std::string& p : phases) hint += " " + p;
      }
      d_.error(c.args[0].loc, "unknown phase `" + c.args[0].text + "`", hint);
    }
    Phase ph;
    ph.name = c.args[0].text;
    ph.loc = c.loc;
    for (size_t i = 1; i < c.args.size(); ++i) {
      const Value& v = c.args[i];
      if (v.is("optional"))
        ph.optional = true;
      else if (v.is("mandatory"))
        ph.optional = false;
      else if (v.is("after") && i + 1 < c.args.size())
        ph.after = c.args[++i].text;
      else
        d_.error(v.loc, "unexpected `" + v.text + "` in `phase`",
                 "write `phase NAME mandatory|optional [after PHASE]`");
    }
    m_.phases.push_back(ph);
    static const std::map<std::string, ConstructId> ids = {{"move", ConstructId::PhaseMove},
                                                           {"place", ConstructId::PhasePlace},
                                                           {"royal-move", ConstructId::PhaseRoyalMove},
                                                           {"draw", ConstructId::PhaseDraw},
                                                           {"draw-card", ConstructId::PhaseDrawCard},
                                                           {"play-card", ConstructId::PhasePlayCard},
                                                           {"redraw", ConstructId::PhaseRedraw}};
    if (auto it = ids.find(ph.name); it != ids.end()) use(it->second, c.loc);
  }

  void placement(const Stmt& s) {
    for (const Stmt& c : body(s)) dispatch(Scope::Placement, c);
  }

  void records(const Stmt& s) {
    m_.records = RecordFacts{};
    m_.records.loc = s.loc;
    use(ConstructId::Records, s.loc);
    for (const Stmt& c : body(s)) dispatch(Scope::Records, c);
  }
  void record_name(const Stmt& c) {
    if (c.args.empty()) d_.error(c.loc, "`name` needs one or more quoted names");
    for (const Value& v : c.args) {
      if (v.kind != ValueKind::String || v.text.empty())
        d_.error(v.loc, "`name` takes quoted names, found `" + v.text + "`");
      else
        m_.records.names.push_back(v.text);
      m_.records.names_of = m_.name;
    }
    use(ConstructId::RecordName, c.loc);
  }

  // `tag NAME -> TARGET ["TEXT" = VALUE]...`
  void record_tag(const Stmt& c) {
    const auto& a = c.args;
    if (a.size() < 3 || a[0].kind != ValueKind::Word || !a[1].is("->") || a[2].kind != ValueKind::Word) {
      d_.error(c.loc, "`tag` is written `tag NAME -> OPTION` (or `-> seed`, `-> dice-seed`)");
      return;
    }
    RecordTagMap t{a[0].text, a[2].text, {}, c.loc};
    if (t.target != "seed" && t.target != "dice-seed" && !m_.option(t.target)) {
      d_.error(a[2].loc, "`tag " + t.tag + " -> " + t.target + "`: no option of that name",
               "a tag sets an option, `seed` (the start `start:N`) or `dice-seed` (the Chess960 dice start)");
      return;
    }
    for (size_t i = 3; i < a.size(); i += 3) {
      if (i + 2 >= a.size() || !a[i + 1].is("=") || a[i + 2].kind == ValueKind::Symbol) {
        d_.error(a[i].loc, "a value mapping is written `\"TEXT\" = VALUE`");
        return;
      }
      t.values.push_back({a[i].kind == ValueKind::Number ? std::to_string(a[i].num) : a[i].text,
                          a[i + 2].kind == ValueKind::Number ? std::to_string(a[i + 2].num) : a[i + 2].text});
      // The value must be one the option takes (its `one-of` list).
      const OptionDef* o = m_.option(t.target);
      if (o && !o->choices.empty() &&
          std::find(o->choices.begin(), o->choices.end(), t.values.back().second) == o->choices.end()) {
        d_.error(a[i + 2].loc, "option `" + o->name + "` takes no value `" + t.values.back().second + "`",
                 did_you_mean(t.values.back().second, o->choices));
        return;
      }
    }
    std::erase_if(m_.records.tags, [&](const RecordTagMap& o) { return o.tag == t.tag; });
    m_.records.tags.push_back(std::move(t));
    use(ConstructId::RecordTag, c.loc);
  }

  void legal(const Stmt& s) {
    m_.royal_safe = m_.royals_apart = m_.royals_not_facing = m_.no_check_given = m_.duple_check = false;
    for (const Stmt& c : body(s)) dispatch(Scope::Legal, c);
  }

  void end(const Stmt& s) {
    m_.end.clear();
    m_.claim_repetition.reset();
    m_.claim_fifty.reset();
    for (const Stmt& c : body(s)) dispatch(Scope::End, c);
  }
  void claim(const Stmt& c) {
    use(ConstructId::Claim, c.loc);
    if (c.args.empty()) {
      d_.error(c.loc, "`claim` takes `repetition` or `fifty-move`");
      return;
    }
    const std::string& what = c.args[0].text;
    std::optional<int> n;
    if (c.args.size() > 1) n = number(c.args[1], "a count", 1, 10000);
    if (what == "repetition") {
      m_.claim_repetition = n.value_or(option_int("repetition", 3));
    } else if (what == "fifty-move") {
      m_.claim_fifty = n.value_or(option_int("fifty-move", 100));
    } else {
      d_.error(c.args[0].loc, "unknown claim `" + what + "`",
               did_you_mean(what, {"repetition", "fifty-move"}));
    }
  }
  void end_rule(const Stmt& c) {
    EndRule r;
    r.condition = c.keyword;
    r.loc = c.loc;
    size_t i = 0;
    while (i < c.args.size() && !c.args[i].is("->")) r.args.push_back(c.args[i++].text);
    if (i >= c.args.size() || i + 1 >= c.args.size()) {
      d_.error(c.loc, "an end condition needs `-> RESULT`", "e.g. `checkmate -> loss`");
      return;
    }
    r.result = c.args[i + 1].text;
    if (std::find(kResults.begin(), kResults.end(), r.result) == kResults.end())
      d_.error(c.args[i + 1].loc, "unknown result `" + r.result + "`", did_you_mean(r.result, kResults));
    r.reason = c.keyword;
    for (size_t j = i + 2; j < c.args.size(); ++j) {
      if (c.args[j].kind == ValueKind::String)
        r.reason = c.args[j].text;
      else if (c.args[j].is("when") && j + 1 < c.args.size())
        r.when = c.args[++j].text;
      else
        d_.error(c.args[j].loc, "unexpected `" + c.args[j].text + "`");
    }
    if (r.condition == "region-reached")
      region_reached(c, r);
    else if (r.condition != "region-reached" && !r.args.empty())
      d_.error(c.loc, "unexpected `" + r.args[0] + "` before `->`");
    // `when fewer-pieces` (issue 24): a stalemate judged by the pieces each side holds.
    if (!r.when.empty() && r.when != "reserves-empty" &&
        !(r.when == "fewer-pieces" && r.condition == "stalemate"))
      d_.error(c.loc, "unknown condition `" + r.when + "`",
               did_you_mean(r.when, r.condition == "stalemate" ? std::vector<std::string>{"fewer-pieces"}
                                                               : std::vector<std::string>{"reserves-empty"}));
    static const std::map<std::string, ConstructId> ids = {
        {"checkmate", ConstructId::EndCheckmate},
        {"stalemate", ConstructId::EndStalemate},
        {"insufficient-material", ConstructId::EndInsufficient},
        {"no-legal-move", ConstructId::EndNoLegalMove},
        {"royal-capture", ConstructId::EndRoyalCapture},
        {"region-reached", ConstructId::EndRegionReached},
        {"agreement", ConstructId::EndAgreement}};
    use(ids.at(r.condition), c.loc);
    m_.end.push_back(r);
  }
  // `region-reached [any] royal|LETTER REGION [unless-answered|safe|held] -> win`: every piece of that
  // kind of the mover (at least one) stands in the region, or with `any` one of them does. `unless-answered`:
  // when the first player (White) reaches it, the second may answer by reaching it too, a draw. `safe`
  // (dobutsu): only while no enemy piece attacks them there, for either side in any position. `held`:
  // the side to move wins when its pieces stand so at its turn (they survived the reply).
  void region_reached(const Stmt& c, const EndRule& r) {
    const char* form =
        "write it as `region-reached [any] royal|LETTER REGION [unless-answered|safe|held] -> win` "
        "(`region-reached royal enemy-half -> win`)";
    const size_t first = !r.args.empty() && r.args[0] == "any" ? 1 : 0;
    size_t n = r.args.size() - first;
    if (n >= 3 && (r.args[first + 2] == "unless-answered" || r.args[first + 2] == "safe" ||
                   r.args[first + 2] == "held"))
      --n;
    if (n != 2) {
      d_.error(n > 2 ? c.args[2].loc : c.loc,
               "`region-reached` takes `[any] royal|LETTER REGION [unless-answered|safe|held]` before `->`",
               form);
      return;
    }
    const Value& who = c.args[first];
    if (!who.is("royal") && !(who.kind == ValueKind::Word && who.text.size() == 1 &&
                              std::isupper(static_cast<unsigned char>(who.text[0])))) {
      d_.error(who.loc, "`region-reached` takes `royal` or a piece letter, found `" + who.text + "`", form);
      return;
    }
    if (!known_region(c.args[first + 1].text)) unknown_region(c.args[first + 1].text, c.args[first + 1].loc);
  }

  int option_int(const std::string& name, int dflt) {
    const OptionDef* o = m_.option(name);
    if (!o) return dflt;
    if (auto n = arb::parse_integer(o->value, INT32_MIN, INT32_MAX)) return static_cast<int>(*n);
    d_.error(o->loc, "option `" + name +
                         "` must be a number: " + arb::integer_problem(o->value, INT32_MIN, INT32_MAX));
    return dflt;
  }

  void expect(const Stmt& s) {
    for (const Stmt& c : body(s)) dispatch(Scope::Expect, c);
  }
  void expect_line(const Stmt& c) {
    Expectation e;
    e.kind = c.keyword;
    e.loc = c.loc;
    static const std::map<std::string, ConstructId> ids = {{"perft", ConstructId::ExpectPerft},
                                                           {"status", ConstructId::ExpectStatus},
                                                           {"legal", ConstructId::ExpectLegal},
                                                           {"illegal", ConstructId::ExpectIllegal}};
    if (auto it = ids.find(c.keyword); it != ids.end()) use(it->second, c.loc);
    size_t i = 0;
    if (i < c.args.size() && c.args[i].kind == ValueKind::String && c.keyword != "legal" &&
        c.keyword != "illegal")
      e.position = c.args[i++].text;
    if (c.keyword == "perft") {
      if (i + 3 != c.args.size() || !c.args[i + 1].is("=")) {
        d_.error(c.loc, "expected `perft [\"POSITION\"] DEPTH = NODES`");
        return;
      }
      auto d = number(c.args[i], "a depth", 0, 12);
      if (!d) return;
      e.depth = *d;
      if (c.args[i + 2].kind != ValueKind::Number || c.args[i + 2].num < 0) {
        d_.error(c.args[i + 2].loc, "expected a node count (a number, 0 or more)");
        return;
      }
      e.nodes = static_cast<unsigned long long>(c.args[i + 2].num);
    } else if (c.keyword == "status") {
      if (i + 2 != c.args.size() || !c.args[i].is("=")) {
        d_.error(c.loc, "expected `status [\"POSITION\"] = REASON`");
        return;
      }
      e.text = c.args[i + 1].text;
    } else if (c.keyword == "legal" || c.keyword == "illegal") {
      if (c.args.size() == 2) {
        e.position = c.args[0].text;
        e.text = c.args[1].text;
      } else if (c.args.size() == 1) {
        e.text = c.args[0].text;
      } else {
        d_.error(c.loc, "expected `" + c.keyword + " [\"POSITION\"] ACTION`");
        return;
      }
    }
    m_.expects.push_back(e);
  }

  void army(const Stmt& s) {
    if (s.args.size() < 2) {
      d_.error(s.loc, "`army` takes a name and its piece letters");
      return;
    }
    ArmyDef a;
    a.name = s.args[0].text;
    a.loc = s.loc;
    for (size_t i = 1; i < s.args.size(); ++i) {
      char l;
      if (!piece_letter(s.args[i], l)) continue;
      a.letters.push_back(l);
      if (!m_.piece(l)) d_.error(s.args[i].loc, std::string("no piece has the letter `") + l + "`");
    }
    use(ConstructId::Army, s.loc);
    army_ = &a;
    for (const Stmt& c : body(s)) dispatch(Scope::Army, c);
    army_ = nullptr;
    if (!m_.armies.empty() && a.letters.size() != m_.armies.front().letters.size() &&
        m_.armies.front().name != a.name)
      d_.error(s.loc,
               "army `" + a.name + "` lists " + std::to_string(a.letters.size()) +
                   " pieces, the first army `" + m_.armies.front().name + "` " +
                   std::to_string(m_.armies.front().letters.size()),
               "an army's letters replace the first army's, position by position");
    std::erase_if(m_.armies, [&](const ArmyDef& o) { return o.name == a.name; });
    m_.armies.push_back(a);
  }
};

std::string read_file(const std::string& path, bool& ok) {
  std::ifstream in(path, std::ios::binary);
  ok = static_cast<bool>(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Post-checks on the finished model: cross references and consistency.
void finish(Model& m, Diagnostics& d) {
  // A parent's `fairy-stockfish NAME` names the parent's game, not this one.
  if (m.fsf_variant_of != m.name) {
    m.fsf_variant.clear();
    m.fsf_loc = Loc{};
  }
  int royals = 0;
  for (const auto& p : m.pieces) {
    if (p.royal) ++royals;
    for (char l : p.promote_to)
      if (!m.piece(l)) d.error(p.promote_loc, std::string("promotion to `") + l + "`, which is no piece");
    if (p.promote_ranks && !m.unbounded && (p.promote_ranks->lo < 1 || p.promote_ranks->hi > m.height))
      d.error(p.promote_loc, "promotion rank off the board");
  }
  if (royals == 0 && m.royal_safe) d.error(m.name_loc, "`royal-safe` but no piece is royal");
  if (m.castling && !m.piece(m.castling_rook))
    d.error(m.castling_loc, std::string("castling rook `") + m.castling_rook + "` is no piece");
  if (m.castling && m.castling_king && !m.piece(m.castling_king))
    d.error(m.castling_loc, std::string("castling king `") + m.castling_king + "` is no piece");
  for (char l : m.reserve)
    if (l != '*' && !m.piece(l)) d.error(m.reserve_loc, std::string("reserve piece `") + l + "` is no piece");
  for (const auto& p : m.pieces)
    if (std::count(m.reserve.begin(), m.reserve.end(), p.letter) > 256)
      d.error(m.reserve_loc, std::string("more than 256 `") + p.letter + "` in a reserve");
  if (m.action_place && m.reserve.empty() && m.setup_kind != SetupKind::Text)
    d.error(m.turn_loc, "`action place` but no `reserve`");
  if (m.place_ranks && !m.unbounded && (m.place_ranks->lo < 1 || m.place_ranks->hi > m.height))
    d.error(m.turn_loc, "placement region off the board");
  if (m.end.empty()) d.error(m.name_loc, "the ruleset has no `end` conditions");
  if (m.title.empty()) m.title = m.name;
}

}  // namespace

std::unique_ptr<Model> load_ruleset(const std::string& path,
                                    const std::map<std::string, std::string>& overrides, Diagnostics& diags,
                                    std::vector<std::unique_ptr<Source>>& sources) {
  // Collect the chain: the file, its parent, the parent's parent...
  std::vector<std::pair<const Source*, std::vector<Stmt>>> chain;
  std::string current = path;
  std::set<std::string> seen;
  Loc from{};
  while (!current.empty()) {
    std::string canon = std::filesystem::weakly_canonical(current).string();
    if (seen.count(canon)) {
      diags.error(from, "`extends` forms a cycle through " + current);
      return nullptr;
    }
    seen.insert(canon);
    // Only regular files of bounded size are read (a parent reached through `extends` that
    // is /dev/zero or a FIFO would read without end).
    std::error_code ec;
    if (!std::filesystem::is_regular_file(current, ec) ||
        std::filesystem::file_size(current, ec) > kMaxRulesetBytes || ec) {
      diags.error(from, "cannot read ruleset file `" + current + "`: not a regular file of at most " +
                            std::to_string(kMaxRulesetBytes) + " bytes");
      return nullptr;
    }
    bool ok = false;
    std::string text = read_file(current, ok);
    if (!ok || std::filesystem::is_directory(current)) {
      diags.error(from, "cannot read ruleset file `" + current + "`");
      return nullptr;
    }
    sources.push_back(std::make_unique<Source>(current, text));
    const Source* src = sources.back().get();
    std::vector<Stmt> stmts = parse(*src, diags);
    std::string parent;
    bool has_header = false;
    for (const Stmt& s : stmts) {
      if (s.keyword != "ruleset") continue;
      if (has_header) diags.error(s.loc, "a second `ruleset` statement", "one file holds one ruleset");
      has_header = true;
      if (s.args.size() >= 3 && s.args[1].is("extends")) {
        parent = s.args[2].text;
        from = s.args[2].loc;
      } else if (s.args.size() != 1) {
        diags.error(s.loc, "expected `ruleset NAME` or `ruleset NAME extends PARENT`");
      }
    }
    if (!has_header) diags.error(Loc{src, 1, 1, 1}, "the file does not start with `ruleset NAME`");
    chain.push_back({src, std::move(stmts)});
    if (parent.empty()) {
      current.clear();
    } else if (parent.find('/') != std::string::npos) {
      // A path relative to this file's folder (`extends "../../rulesets/chess"`).
      current = (std::filesystem::path(current).parent_path() / (parent + ".rules")).string();
      if (!std::filesystem::exists(current)) {
        diags.error(from, "cannot find the parent ruleset `" + parent + "` (looked for " + current + ")");
        return nullptr;
      }
    } else {
      // A name: this file's folder, then the search path (search_path.hpp).
      std::vector<std::filesystem::path> looked;
      std::filesystem::path here = std::filesystem::path(current).parent_path();
      if (here.empty()) here = ".";
      auto found = find_ruleset(parent, here, &looked);
      if (!found) {
        std::string where;
        for (const auto& d : looked) where += (where.empty() ? "" : ", ") + d.string();
        diags.error(from,
                    "cannot find the parent ruleset `" + parent + "` (looked for " + parent + ".rules in " +
                        where + ")",
                    "put it beside this file, or name its folder in ARBITER_RULESETS (colon-separated)");
        return nullptr;
      }
      current = found->string();
    }
  }
  auto model = std::make_unique<Model>();
  Checker checker(*model, diags, overrides);
  for (size_t i = chain.size(); i-- > 0;) {
    bool root = i == 0;
    checker.top(chain[i].second, true);
    if (!root) {
      for (const Stmt& s : chain[i].second)
        if (s.keyword == "ruleset" && !s.args.empty())
          model->lineage.insert(model->lineage.begin(), s.args[0].text);
      model->expects.clear();  // a parent's expectations are about the parent
    }
  }
  for (const auto& [k, v] : overrides)
    if (!checker.used_overrides.count(k)) {
      std::vector<std::string> names;
      for (const auto& o : model->options) names.push_back(o.name);
      diags.error(Loc{}, "--set " + k + "=" + v + ": the ruleset has no option `" + k + "`",
                  did_you_mean(k, names));
    }
  if (!model->name_loc.src && !chain.empty()) model->name_loc = Loc{chain.front().first, 1, 1, 1};
  finish(*model, diags);
  if (diags.has_errors()) return nullptr;
  return model;
}

}  // namespace arb::lang
