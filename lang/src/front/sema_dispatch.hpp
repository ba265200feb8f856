// The construct table's dispatch: scopes, readers, applying a typed use.
//
// A part of the body of class Checker (sema.cpp includes it inside the class, in this
// place): member functions moved out of sema.cpp unchanged. Not a standalone header;
// include it nowhere else. clang-format would unindent it: it is formatted as part of
// the class.
// clang-format off

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
// clang-format on
