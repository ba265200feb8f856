#include "registry/engines.hpp"

#include <algorithm>

#include "fsf/fairy_stockfish.hpp"
#include "registry/variants.hpp"

namespace arb::registry {

std::optional<EngineKind> engine_kind(const std::string& word) {
  if (word == "compiled") return EngineKind::Compiled;
  if (word == "reference") return EngineKind::Reference;
  if (word == "fairy-stockfish") return EngineKind::FairyStockfish;
  return std::nullopt;
}

const char* to_string(EngineKind k) {
  switch (k) {
    case EngineKind::Compiled:
      return "compiled";
    case EngineKind::Reference:
      return "reference";
    case EngineKind::FairyStockfish:
      return "fairy-stockfish";
  }
  return "compiled";
}

namespace {

// The compiled generator of `c.program`.
void open_compiled(OpenedEngine& o) {
  auto program = o.compiled.program;
  o.make = [program] { return lang::make_compiled_engine(program); };
}

// The reference engine of a ruleset: the one of its own name, else (a designer's ruleset
// descending from a variant with a reference) the one reference_of() names, given the deck,
// hand or tiles the ruleset states. The model alone is loaded first: a reference plays a
// ruleset the compiler does not execute yet.
void open_reference(const EngineSpec& spec, OpenedEngine& o, lang::Diagnostics& diags) {
  if (!o.compiled.model) {
    o.compiled.model = lang::load_ruleset(spec.rules.string(), {}, diags, o.compiled.sources);
    if (!o.compiled.model) return;
  }
  o.variant = o.compiled.model->name;
  std::string variant = o.variant;
  std::map<std::string, std::string> options = spec.options;
  try {
    if (!make_reference(variant, options)) {
      lang::Diagnostics cd;
      lang::Compiled full = compile(spec.rules.string(), spec.options, cd);
      auto of = full.program ? reference_of(full, spec.options) : std::nullopt;
      if (!of) throw OpenError("variant `" + o.variant + "` has no reference engine yet");
      variant = of->variant;
      options = of->options;
    }
    if (!make_reference(variant, options))
      throw OpenError("variant `" + o.variant + "` has no reference engine yet");
  } catch (const OpenError&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw OpenError(std::string("the reference engine refuses the options: ") + e.what(), true);
  }
  o.make = [variant, options] { return make_reference(variant, options); };
}

void open_fairy_stockfish(const EngineSpec& spec, OpenedEngine& o) {
  if (spec.fsf_variant.empty())
    throw OpenError("Fairy-Stockfish needs --fsf-variant NAME (a UCI_Variant it lists under `uci`)");
  fsf::FsfSettings s;
  s.variant = spec.fsf_variant;
  s.variant_path = spec.fsf_variant_path;
  // The ruleset compared, when there is one, says whether dead positions end the game and
  // which claims it has.
  if (!spec.rules.empty()) {
    lang::Diagnostics md;
    std::vector<std::unique_ptr<lang::Source>> sources;
    if (auto m = lang::load_ruleset(spec.rules.string(), spec.options, md, sources)) {
      s.dead_positions = std::any_of(m->end.begin(), m->end.end(), [](const lang::EndRule& r) {
        return r.condition == "insufficient-material";
      });
      for (const lang::ConstructUse& u : m->constructs)
        if (u.id == lang::ConstructId::EndDrawOdds) s.draw_odds = u.arg("").text == "white" ? 0 : 1;
      s.claim_fifty = m->claim_fifty.value_or(0);
      s.claim_repetition = m->claim_repetition.value_or(0);
      // Its pieces say where each may stand and which reset the clock (a `P` is no pawn in
      // breakthrough or clobber): a `forbidden ranks`, a promotion that is not declinable.
      s.rank_bans.emplace();
      s.clock_resetters.emplace();
      s.castling_king = 0;  // the castling block's king, else the royal piece
      for (const lang::PieceDef& p : m->pieces) {
        const char letter = static_cast<char>(std::toupper(static_cast<unsigned char>(p.letter)));
        if (p.forbidden_ranks) s.rank_bans->push_back({letter, p.forbidden_ranks->lo, p.forbidden_ranks->hi});
        if (p.promote_ranks && !p.find(lang::ConstructId::PromotionOptional) &&
            !p.find(lang::ConstructId::PromotionSquares))
          s.rank_bans->push_back({letter, p.promote_ranks->lo, p.promote_ranks->hi});
        const lang::ConstructUse* clock = p.find(lang::ConstructId::ResetsClock);
        if ((p.name == "pawn" || p.promote_ranks) && !(clock && clock->arg("").text == "never"))
          s.clock_resetters->push_back(letter);
        if (p.royal && !s.castling_king) s.castling_king = letter;
        if (p.find(lang::ConstructId::EnPassantField)) s.ep_path.push_back(letter);
        if (p.initial_ranks)
          for (int r = p.initial_ranks->lo; r <= p.initial_ranks->hi; ++r)
            s.ep_passed.push_back({letter, r + 1});
        if (const lang::ConstructUse* u = p.find(lang::ConstructId::PromoteZone))
          if (u->arg("").words.size() == 1 && u->arg("").words[0].size() == 1)
            s.promoted[letter] =
                static_cast<char>(std::toupper(static_cast<unsigned char>(u->arg("").words[0][0])));
      }
      if (m->castling_king)
        s.castling_king = static_cast<char>(std::toupper(static_cast<unsigned char>(m->castling_king)));
      if (!s.castling_king) s.castling_king = 'K';
      s.castling_rooks = m->castling_rooks;
      s.castling_rank = m->castling_rank;
      s.castling_shredder = m->castling_shredder;
      // `pass` without `when-blocked` (janggi) is written as the royal's square twice.
      s.pass_in_place = std::any_of(
          m->constructs.begin(), m->constructs.end(),
          [](const lang::ConstructUse& u) { return u.id == lang::ConstructId::TurnPass && !u.has(""); });
    }
  }
  std::unique_ptr<fsf::FairyStockfishEngine> first;
  try {
    s.argv = fsf::engine_command(spec.fsf_engine).argv;
    first = std::make_unique<fsf::FairyStockfishEngine>(s);
  } catch (const fsf::EngineMissing& e) {
    throw OpenError(e.what());
  } catch (const fsf::VariantRefused& e) {
    throw OpenError(e.what());
  }
  // Every further engine is a clone: a process of its own, the variant already accepted.
  std::shared_ptr<const fsf::FairyStockfishEngine> proto = first->blueprint();
  o.make = [proto] { return proto->clone(); };
  o.variant = proto->name();
  o.engine = std::move(first);
}

// The first position the spec names, as text for set_position ("" for the engine's own).
std::string first_position(const EngineSpec& spec, const OpenedEngine& o) {
  if (spec.seed) {
    if (!spec.position.empty()) throw OpenError("give a seed or a position, not both");
    bool dice = false;
    if (o.compiled.program)
      dice = o.compiled.program->chess960_setup;
    else if (o.compiled.model)
      dice = o.compiled.model->setup_kind == lang::SetupKind::Chess960;
    if (!dice) return "start:" + std::to_string(*spec.seed);
    // A Chess960 setup: the start the rule text's dice procedure builds from the seed.
    std::optional<int> n = spec.kind == EngineKind::Compiled
                               ? std::optional<int>(lang::chess960_dice_start(*spec.seed))
                               : reference_dice_start(o.variant, *spec.seed);
    if (!n)
      throw OpenError("the " + std::string(to_string(spec.kind)) + " engine of `" + o.variant +
                      "` has no dice start");
    return "start:" + std::to_string(*n);
  }
  if (!spec.position.empty()) return spec.position;
  return spec.kind == EngineKind::Compiled ? std::string() : std::string("start");
}

}  // namespace

OpenedEngine open_engine(const EngineSpec& spec, lang::Diagnostics& diags) {
  OpenedEngine o;
  if (spec.program) {
    if (spec.kind != EngineKind::Compiled)
      throw OpenError("a compiled program opens only as the compiled engine");
    o.compiled.program = spec.program;
    o.variant = spec.program->variant;
  }
  switch (spec.kind) {
    case EngineKind::Compiled:
      if (!o.compiled.program) {
        o.compiled = compile(spec.rules.string(), spec.options, diags);
        if (diags.has_errors() || !o.compiled.program) return o;
        o.variant = o.compiled.model->name;
      }
      open_compiled(o);
      break;
    case EngineKind::Reference:
      open_reference(spec, o, diags);
      if (!o.make) return o;
      break;
    case EngineKind::FairyStockfish:
      open_fairy_stockfish(spec, o);
      break;
  }
  if (!o.engine) o.engine = o.make();  // (Fairy-Stockfish's first is made with its maker)
  if (!o.engine) throw OpenError("no engine plays `" + o.variant + "`");
  const std::string position = first_position(spec, o);
  if (!position.empty()) o.engine->set_position(position);  // PositionError passes to the caller
  return o;
}

EngineMaker program_engines(std::shared_ptr<const lang::Program> program) {
  EngineSpec spec;
  spec.program = std::move(program);
  lang::Diagnostics diags;
  return open_engine(spec, diags).make;
}

}  // namespace arb::registry
