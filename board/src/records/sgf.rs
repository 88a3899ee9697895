//! SGF (`GM[6]`) in gnubg's dialect: writer and reader.
//!
//! # What is written
//!
//! One game tree per game, as gnubg 1.07 saves a match (`save match`), each tree on
//! its own lines:
//!
//! ```text
//! (;FF[4]GM[6]CA[UTF-8]AP[bgkit:0.1.0]MI[length:7][game:0][ws:0][bs:0]PW[alice]PB[bob]
//! DT[2025-01-31]EV[...]RU[Crawford]RE[W+2]
//! ;W[31hefe]
//! ;B[double]
//! ;W[take]
//! ...)
//! ```
//!
//! * `MI`: match length (0 = money), the game's number counted **from 0** (as gnubg
//!   writes it; the SGF specification counts from 1), White's and Black's score before
//!   the game. `PW`/`PB`: White's and Black's names. On the first game only: `WR`,
//!   `BR`, `DT`, `EV`, `RO`, `PC`, `AN`, `GC`.
//! * `RU`: colon-separated rules: `NoCube`, `Crawford` (match play with the rule),
//!   `CrawfordGame`, `Jacoby` (money play), `Nackgammon`/`Hypergammon1..3`, and the
//!   bgkit token `Beavers` (gnubg skips tokens it does not know).
//! * `RE[W+n]`, `RE[B+nR]`: winner, points (cube × 1, 2 or 3, not capped), `R` when
//!   the loser resigned. Absent while a game is unfinished.
//! * Moves: colour, dice (larger first), then one from/to letter pair per die in the
//!   order played. Points are letters `a`–`x` = points 1–24 counted from **White's**
//!   ace point: White's point p is `a` + p − 1, Black's point p is `x` − (p − 1); `y` is
//!   the bar, `z` off. Hits are not marked. A dance is the dice alone (`B[66]`).
//! * Cube: `W[double]`, `B[take]`, `B[drop]`; a beaver is written as gnubg does, as a
//!   `double` answering a double, followed by the original doubler's `take`/`drop`.
//!   A cube set by hand is a node `CV[value]CP[c|w|b]`, as gnubg writes board edits.
//! * Resignations: gnubg keeps only the result (`RE[..R]`), from which it takes the
//!   level as points ÷ cube. bgkit also writes each offer and answer as its own node
//!   with bgkit properties that gnubg ignores: `RS[W2]` (White offers a gammon),
//!   `RA[B]` (Black accepts), `RJ[B]` (Black declines).
//!
//! # What is read
//!
//! Any SGF collection; game trees whose root lacks `GM[6]` are skipped, and of
//! variations only the main line (first branch) is followed. Besides the above: moves
//! whose pairs join the dice of one checker (`B[61yg]`), dice in either order, cube
//! ownership as `CP` (gnubg) or `CO` (the specification; `n` ignored), gnubg's
//! analysis and marks (`A`, `DA`, `LU`, `GS`, `MR`, `BM`, `DO`, `GB`, `GW`, comments,
//! ...: ignored), and its `PL`/`DI` nodes of a roll not yet played (ignored). An
//! `RE[..R]` without resignation nodes becomes a resignation offered by the loser at
//! the end of the game and accepted, at level points ÷ cube clamped to 1..=3, as gnubg
//! reads it. Position setup (`AE`, `AB`, `AW`) and automatic doubles (`CV` on the
//! root) are rejected as unsupported.
//!
//! Consecutive trees form one match while their `MI` game numbers count up from the
//! first and the players, length and variant stay the same; a tree numbered 0 (or one
//! that differs) starts the next match. So a file appended to game after game, from
//! many matches, reads back as those matches.

use std::fmt::Write;

use crate::dice::Dice;
use crate::variant::Variant;

use super::error::RecordError;
use super::game::Builder;
use super::model::{Action, Date, GameRecord, GameResult, MatchInfo, MatchRecord, Resignation, Rules, Seat};

/// The `AP` (application) property bgkit writes.
const APPLICATION: &str = concat!("bgkit:", env!("CARGO_PKG_VERSION"));

/// Writes a whole match as SGF, one game tree per game, as gnubg's `save match` does.
/// The match is validated first (see [`MatchRecord::validate`]).
pub fn write_sgf(record: &MatchRecord) -> Result<String, RecordError> {
    let replays = record.validate()?;
    let mut out = String::new();
    for (i, replay) in replays.iter().enumerate() {
        write_tree(&mut out, record, i, replay.steps.iter().map(|s| &s.action));
    }
    Ok(out)
}

/// Writes one game of a match as a single SGF game tree, for appending to a
/// collection file. The game is replayed (checked) first.
pub fn write_sgf_game(record: &MatchRecord, index: usize) -> Result<String, RecordError> {
    let replay = record.replay(index)?;
    let mut out = String::new();
    write_tree(&mut out, record, index, replay.steps.iter().map(|s| &s.action));
    Ok(out)
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' || c == ']' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn point_letter(seat: Seat, p: u8) -> char {
    match p {
        25 => 'y',
        0 => 'z',
        p => match seat {
            Seat::White => (b'a' + p - 1) as char,
            Seat::Black => (b'x' - (p - 1)) as char,
        },
    }
}

fn variant_token(v: Variant) -> Option<&'static str> {
    match v {
        Variant::Backgammon => None,
        Variant::Nackgammon => Some("Nackgammon"),
        Variant::Hypergammon1 => Some("Hypergammon1"),
        Variant::Hypergammon2 => Some("Hypergammon2"),
        Variant::Hypergammon3 => Some("Hypergammon3"),
    }
}

fn write_tree<'a>(
    out: &mut String,
    m: &MatchRecord,
    index: usize,
    actions: impl Iterator<Item = &'a Action>,
) {
    let game = &m.games[index];
    let _ = write!(
        out,
        "(;FF[4]GM[6]CA[UTF-8]AP[{APPLICATION}]MI[length:{}][game:{index}][ws:{}][bs:{}]PW[{}]PB[{}]",
        m.match_length,
        game.score[0],
        game.score[1],
        escape(&m.players[0]),
        escape(&m.players[1])
    );
    if index == 0 {
        let info = &m.info;
        let mut prop = |name: &str, value: &Option<String>| {
            if let Some(v) = value.as_deref().filter(|v| !v.is_empty()) {
                let _ = write!(out, "{name}[{}]", escape(v));
            }
        };
        prop("WR", &info.ratings[0]);
        prop("BR", &info.ratings[1]);
        prop(
            "DT",
            &info
                .date
                .map(|d| format!("{:04}-{:02}-{:02}", d.year, d.month, d.day)),
        );
        prop("EV", &info.event);
        prop("RO", &info.round);
        prop("PC", &info.place);
        prop("AN", &info.annotator);
        prop("GC", &info.comment);
    }
    let mut rules = Vec::new();
    if !m.rules.cube {
        rules.push("NoCube");
    }
    if m.match_length > 0 && m.rules.crawford {
        rules.push("Crawford");
        if game.crawford {
            rules.push("CrawfordGame");
        }
    }
    if m.match_length == 0 && m.rules.jacoby {
        rules.push("Jacoby");
    }
    rules.extend(variant_token(m.variant));
    if m.match_length == 0 && m.rules.beavers {
        rules.push("Beavers");
    }
    if !rules.is_empty() {
        let _ = write!(out, "RU[{}]", rules.join(":"));
    }
    if let Some(r) = game.result {
        let _ = write!(
            out,
            "RE[{}+{}{}]",
            r.winner.sgf_letter(),
            r.points,
            if r.resigned { "R" } else { "" }
        );
    }
    for action in actions {
        out.push_str("\n;");
        match action {
            Action::Move { seat, dice, steps } => {
                let _ = write!(out, "{}[{}{}", seat.sgf_letter(), dice.high(), dice.low());
                for s in steps {
                    out.push(point_letter(*seat, s.from));
                    out.push(point_letter(*seat, s.to));
                }
                out.push(']');
            }
            Action::Double { seat } | Action::Beaver { seat } => {
                let _ = write!(out, "{}[double]", seat.sgf_letter());
            }
            Action::Take { seat } => {
                let _ = write!(out, "{}[take]", seat.sgf_letter());
            }
            Action::Drop { seat } => {
                let _ = write!(out, "{}[drop]", seat.sgf_letter());
            }
            Action::Resign { seat, level } => {
                let _ = write!(out, "RS[{}{}]", seat.sgf_letter(), level.multiplier());
            }
            Action::AcceptResignation { seat } => {
                let _ = write!(out, "RA[{}]", seat.sgf_letter());
            }
            Action::RejectResignation { seat } => {
                let _ = write!(out, "RJ[{}]", seat.sgf_letter());
            }
            Action::SetCube { value, owner } => {
                let owner = match owner {
                    None => 'c',
                    Some(Seat::White) => 'w',
                    Some(Seat::Black) => 'b',
                };
                let _ = write!(out, "CV[{value}]CP[{owner}]");
            }
        }
    }
    out.push_str(")\n");
}

// ---------------------------------------------------------------------------------
// Reading: the generic SGF tree first, then its backgammon meaning.

#[derive(Clone, Debug)]
struct Property {
    ident: String,
    values: Vec<String>,
    line: usize,
}

#[derive(Clone, Debug)]
struct Node {
    props: Vec<Property>,
    line: usize,
}

impl Node {
    fn get(&self, ident: &str) -> Option<&Property> {
        self.props.iter().find(|p| p.ident == ident)
    }

    fn value(&self, ident: &str) -> Option<&str> {
        self.get(ident).and_then(|p| p.values.first()).map(String::as_str)
    }
}

#[derive(Clone, Debug, Default)]
struct Tree {
    nodes: Vec<Node>,
    children: Vec<Tree>,
}

impl Tree {
    /// The nodes of the main line: this tree's, then its first variation's, and so on.
    fn main_line(&self) -> Vec<&Node> {
        let mut nodes: Vec<&Node> = self.nodes.iter().collect();
        let mut t = self;
        while let Some(child) = t.children.first() {
            nodes.extend(child.nodes.iter());
            t = child;
        }
        nodes
    }
}

/// How deep variations may nest (each level is a recursion).
const MAX_DEPTH: usize = 200;

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
}

impl Lexer<'_> {
    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.next();
        }
    }

    fn err(&self, message: impl Into<String>) -> RecordError {
        RecordError::syntax(message).at_line(self.line)
    }

    /// A game tree nested `depth` deep; the opening `(` has been read.
    fn tree(&mut self, opened: usize, depth: usize) -> Result<Tree, RecordError> {
        if depth > MAX_DEPTH {
            return Err(self.err(format!("variations nested more than {MAX_DEPTH} deep")));
        }
        let mut tree = Tree::default();
        loop {
            self.skip_space();
            match self.next() {
                None => {
                    return Err(self.err(format!(
                        "the game tree opened on line {opened} is not closed (file truncated?)"
                    )))
                }
                Some(';') => {
                    if !tree.children.is_empty() {
                        return Err(self.err("a node follows a variation in the same tree"));
                    }
                    let node = self.node()?;
                    tree.nodes.push(node);
                }
                Some('(') => {
                    if tree.nodes.is_empty() {
                        return Err(self.err("a game tree must start with a node (';')"));
                    }
                    let line = self.line;
                    tree.children.push(self.tree(line, depth + 1)?);
                }
                Some(')') => {
                    if tree.nodes.is_empty() {
                        return Err(self.err("empty game tree '()'"));
                    }
                    return Ok(tree);
                }
                Some(c) => return Err(self.err(format!("unexpected '{c}' where a node (';') was expected"))),
            }
        }
    }

    /// A node's properties; the `;` has been read.
    fn node(&mut self) -> Result<Node, RecordError> {
        let mut node = Node {
            props: Vec::new(),
            line: self.line,
        };
        loop {
            self.skip_space();
            match self.peek() {
                Some(c) if c.is_ascii_uppercase() => {
                    let line = self.line;
                    let mut ident = String::new();
                    while let Some(c) = self.peek().filter(char::is_ascii_alphabetic) {
                        self.next();
                        // FF[3] allowed lower-case letters inside identifiers: skip them.
                        if c.is_ascii_uppercase() {
                            ident.push(c);
                        }
                    }
                    let mut values = Vec::new();
                    loop {
                        self.skip_space();
                        if self.peek() != Some('[') {
                            break;
                        }
                        self.next();
                        values.push(self.value()?);
                    }
                    if values.is_empty() {
                        return Err(
                            RecordError::syntax(format!("property {ident} has no value")).at_line(line)
                        );
                    }
                    node.props.push(Property { ident, values, line });
                }
                Some(';' | '(' | ')') | None => return Ok(node),
                Some(c) => return Err(self.err(format!("unexpected '{c}' inside a node"))),
            }
        }
    }

    /// A property value; the `[` has been read.
    fn value(&mut self) -> Result<String, RecordError> {
        let start = self.line;
        let mut v = String::new();
        loop {
            match self.next() {
                None => {
                    return Err(RecordError::syntax(format!(
                        "the property value opened on line {start} is not closed (file truncated?)"
                    ))
                    .at_line(self.line))
                }
                Some('\\') => match self.next() {
                    None => continue,
                    // An escaped line break is a soft break: dropped.
                    Some('\n') => {}
                    Some('\r') => {
                        if self.peek() == Some('\n') {
                            self.next();
                        }
                    }
                    Some(c) => v.push(c),
                },
                Some(']') => return Ok(v),
                Some(c) => v.push(c),
            }
        }
    }
}

fn parse_collection(text: &str) -> Result<Vec<Tree>, RecordError> {
    let mut lx = Lexer {
        chars: text.chars().peekable(),
        line: 1,
    };
    let mut trees = Vec::new();
    // Text before the first '(' (and between trees) is not SGF; skip it as gnubg does.
    while let Some(c) = lx.next() {
        if c == '(' {
            let line = lx.line;
            lx.skip_space();
            if lx.peek() != Some(';') {
                return Err(lx.err("a game tree must start with a node (';')"));
            }
            trees.push(lx.tree(line, 0)?);
        }
    }
    Ok(trees)
}

/// What the root node of one game says.
struct Root {
    length: u32,
    game_number: Option<usize>,
    score: [u32; 2],
    players: [String; 2],
    rules: Rules,
    crawford_game: bool,
    variant: Variant,
    result: Option<(Seat, u32, bool)>,
    info: MatchInfo,
}

fn parse_root(node: &Node) -> Result<Root, RecordError> {
    let mut root = Root {
        length: 0,
        game_number: None,
        score: [0, 0],
        players: ["White".to_string(), "Black".to_string()],
        rules: Rules::default(),
        crawford_game: false,
        variant: Variant::Backgammon,
        result: None,
        info: MatchInfo::default(),
    };
    let number = |text: &str, what: &str, line: usize| -> Result<u32, RecordError> {
        text.trim()
            .parse::<u32>()
            .map_err(|_| RecordError::syntax(format!("MI {what} '{text}' is not a number")).at_line(line))
    };
    let (mut crawford, mut jacoby, mut beavers) = (false, false, false);
    for p in &node.props {
        let first = p.values[0].as_str();
        let text = || Some(first.to_string()).filter(|s| !s.trim().is_empty());
        match p.ident.as_str() {
            "MI" => {
                for v in &p.values {
                    let (key, value) = v.split_once(':').unwrap_or((v.as_str(), ""));
                    match key.trim() {
                        "length" => root.length = number(value, "length", p.line)?,
                        "game" => root.game_number = Some(number(value, "game", p.line)? as usize),
                        "ws" => root.score[0] = number(value, "ws", p.line)?,
                        "bs" => root.score[1] = number(value, "bs", p.line)?,
                        _ => {}
                    }
                }
            }
            "PW" => root.players[0] = first.to_string(),
            "PB" => root.players[1] = first.to_string(),
            "WR" => root.info.ratings[0] = text(),
            "BR" => root.info.ratings[1] = text(),
            "DT" => root.info.date = Date::parse(first),
            "EV" => root.info.event = text(),
            "RO" => root.info.round = text(),
            "PC" => root.info.place = text(),
            "AN" => root.info.annotator = text(),
            "GC" => root.info.comment = text(),
            "RU" => {
                for token in first.split(':').map(str::trim) {
                    match token {
                        "Crawford" => crawford = true,
                        "CrawfordGame" => root.crawford_game = true,
                        "Jacoby" => jacoby = true,
                        "NoCube" => root.rules.cube = false,
                        "Beavers" => beavers = true,
                        "Nackgammon" => root.variant = Variant::Nackgammon,
                        "Hypergammon1" => root.variant = Variant::Hypergammon1,
                        "Hypergammon2" => root.variant = Variant::Hypergammon2,
                        "Hypergammon3" => root.variant = Variant::Hypergammon3,
                        _ => {}
                    }
                }
            }
            "RE" => root.result = Some(parse_result(first).map_err(|e| e.at_line(p.line))?),
            "CV" if first.trim() != "1" => {
                return Err(RecordError::unsupported(format!(
                    "automatic doubles (CV[{first}] on the root node) are not supported"
                ))
                .at_line(p.line))
            }
            "AE" | "AB" | "AW" => {
                return Err(RecordError::unsupported(format!(
                "position setup ({}) is not supported: records start from the variant's starting position",
                p.ident
            ))
                .at_line(p.line))
            }
            _ => {}
        }
    }
    let rules = Rules::default();
    if root.length > 0 {
        root.rules.crawford = crawford;
        root.rules.jacoby = false;
        root.rules.beavers = false;
    } else {
        root.rules.crawford = rules.crawford;
        root.rules.jacoby = jacoby;
        root.rules.beavers = beavers;
    }
    Ok(root)
}

/// `W+2`, `B+1R`: winner, points, resigned.
fn parse_result(text: &str) -> Result<(Seat, u32, bool), RecordError> {
    let bad = || RecordError::syntax(format!("RE[{text}] is not a result like W+2 or B+1R"));
    let t = text.trim();
    let winner = match t.chars().next().map(|c| c.to_ascii_uppercase()) {
        Some('W') => Seat::White,
        Some('B') => Seat::Black,
        _ => return Err(bad()),
    };
    let rest = t[1..].strip_prefix('+').ok_or_else(bad)?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let points: u32 = digits.parse().map_err(|_| bad())?;
    let tail = &rest[digits.len()..];
    let resigned = tail.trim().eq_ignore_ascii_case("r");
    if !tail.trim().is_empty() && !resigned {
        return Err(bad());
    }
    Ok((winner, points.max(1), resigned))
}

fn seat_of(ident: &str) -> Option<Seat> {
    match ident {
        "W" => Some(Seat::White),
        "B" => Some(Seat::Black),
        _ => None,
    }
}

/// A point letter in `seat`'s own numbering (25 bar, 0 off).
fn letter_point(seat: Seat, c: char) -> Option<u8> {
    match c {
        'y' => Some(25),
        'z' => Some(0),
        'a'..='x' => {
            let i = c as u8 - b'a';
            Some(match seat {
                Seat::White => i + 1,
                Seat::Black => 24 - i,
            })
        }
        _ => None,
    }
}

/// Plays the nodes after the root, building the actions.
fn read_game(root: &Root, nodes: &[&Node]) -> Result<GameRecord, RecordError> {
    // gnubg's files do not say whether beavers are allowed: a beaver played in money
    // play is accepted, and the match's rule set from it afterwards.
    let mut rules = root.rules;
    rules.beavers |= root.length == 0;
    let mut b = Builder::new(root.variant, rules, root.length, root.crawford_game);
    for node in nodes {
        for p in &node.props {
            let value = p.values[0].as_str();
            let text = format!("{}[{value}]", p.ident);
            let n = b.next_number();
            let syntax = |msg: String| {
                RecordError::syntax(format!("{text}: {msg}"))
                    .at_action(n)
                    .at_line(p.line)
            };
            if let Some(seat) = seat_of(&p.ident) {
                let action = match value.trim() {
                    "double" => match b.state.double_pending_by() {
                        Some(by) if by == seat.other() => Action::Beaver { seat },
                        _ => Action::Double { seat },
                    },
                    "take" => Action::Take { seat },
                    "drop" => Action::Drop { seat },
                    v => {
                        let (dice, pairs) = parse_move_value(seat, v).map_err(syntax)?;
                        b.play(seat, dice, &pairs, p.line, &text)?;
                        continue;
                    }
                };
                b.apply(action, p.line, &text)?;
                continue;
            }
            match p.ident.as_str() {
                "RS" => {
                    let mut cs = value.trim().chars();
                    let seat = cs.next().and_then(|c| seat_of(&c.to_string()));
                    let level = cs.as_str().parse::<u32>().ok().filter(|l| (1..=3).contains(l));
                    let (Some(seat), Some(level)) = (seat, level) else {
                        return Err(syntax(
                            "a resignation is a colour and a level 1-3, like RS[W2]".into(),
                        ));
                    };
                    let level = Resignation::from_multiplier(level);
                    b.apply(Action::Resign { seat, level }, p.line, &text)?;
                }
                "RA" | "RJ" => {
                    let Some(seat) = seat_of(value.trim()) else {
                        return Err(syntax(
                            "the answer to a resignation names a colour, W or B".into(),
                        ));
                    };
                    let action = if p.ident == "RA" {
                        Action::AcceptResignation { seat }
                    } else {
                        Action::RejectResignation { seat }
                    };
                    b.apply(action, p.line, &text)?;
                }
                "AE" | "AB" | "AW" => {
                    return Err(RecordError::unsupported(format!(
                        "{text}: position setup is not supported (records replay from the starting position)"
                    ))
                    .at_action(n)
                    .at_line(p.line));
                }
                _ => {}
            }
        }
        read_cube_edit(&mut b, node)?;
    }
    let line = nodes.last().map_or(0, |n| n.line);
    if let Some((winner, points, resigned)) = root.result {
        if resigned && b.state.result().is_none() {
            // gnubg keeps only RE[..R]: the loser resigned at the end, at points / cube.
            let loser = winner.other();
            if b.state.resign_pending().is_none_or(|(by, _)| by != loser) {
                let level = Resignation::from_multiplier(points / b.state.cube().0);
                b.apply(Action::Resign { seat: loser, level }, line, "RE")?;
            }
            b.apply(Action::AcceptResignation { seat: winner }, line, "RE")?;
        } else {
            let result = b.state.result();
            let stated = GameResult {
                winner,
                points,
                resigned,
            };
            // gnubg reads the points of a resignation as a level; compare only the
            // winner there, everything otherwise.
            let agrees = match result {
                Some(r) if resigned => r.winner == winner && r.resigned,
                Some(r) => r == stated,
                None => false,
            };
            if !agrees {
                return Err(RecordError::inconsistent(format!(
                    "RE[{}+{points}{}] does not match the game: {}",
                    winner.sgf_letter(),
                    if resigned { "R" } else { "" },
                    describe_result(result)
                ))
                .at_line(line));
            }
        }
    }
    Ok(GameRecord {
        score: root.score,
        crawford: root.crawford_game,
        result: b.state.result(),
        actions: b.actions,
    })
}

/// "White wins 2 points", "unfinished".
pub(crate) fn describe_result(result: Option<GameResult>) -> String {
    match result {
        None => "it is unfinished".to_string(),
        Some(r) => format!(
            "{} wins {} point{}{}",
            r.winner,
            r.points,
            if r.points == 1 { "" } else { "s" },
            if r.resigned { " by resignation" } else { "" }
        ),
    }
}

/// Dice and from/to pairs of a move value such as `61yg` (mover's numbering).
fn parse_move_value(seat: Seat, v: &str) -> Result<(Dice, Vec<(u8, u8)>), String> {
    let chars: Vec<char> = v.chars().collect();
    let die = |i: usize| chars.get(i).and_then(|c| c.to_digit(10)).map(|d| d as u8);
    let dice = match (die(0), die(1)) {
        (Some(a), Some(b)) => Dice::new(a, b).map_err(|e| e.to_string())?,
        _ => return Err("a move starts with two dice digits".into()),
    };
    let letters = &chars[2..];
    if letters.len() % 2 == 1 {
        return Err("the move has an odd number of point letters".into());
    }
    if letters.len() > 8 {
        return Err("the move has more than four from/to pairs".into());
    }
    let point = |c: char| {
        letter_point(seat, c).ok_or_else(|| format!("'{c}' is not a point letter (a-x, y bar, z off)"))
    };
    let pairs = letters
        .chunks(2)
        .map(|pair| Ok((point(pair[0])?, point(pair[1])?)))
        .collect::<Result<Vec<_>, String>>()?;
    Ok((dice, pairs))
}

/// Cube edits: `CV` (value) and `CP`/`CO` (owner) in one node make one action.
fn read_cube_edit(b: &mut Builder, node: &Node) -> Result<(), RecordError> {
    let cv = node.get("CV");
    let owner_prop = node.get("CP").or_else(|| node.get("CO"));
    if cv.is_none() && owner_prop.is_none() {
        return Ok(());
    }
    let (mut value, mut owner) = b.state.cube();
    let mut edit = false;
    if let Some(p) = cv {
        let v = p.values[0].trim();
        value = v
            .parse()
            .map_err(|_| RecordError::syntax(format!("CV[{v}] is not a cube value")).at_line(p.line))?;
        edit = true;
    }
    if let Some(p) = owner_prop {
        match p.values[0].trim() {
            "c" => owner = None,
            "w" => owner = Some(Seat::White),
            "b" => owner = Some(Seat::Black),
            // CO[n]: "no cube"; nothing to set.
            "n" => {}
            other => {
                return Err(
                    RecordError::syntax(format!("{}[{other}]: the cube owner is c, w or b", p.ident))
                        .at_line(p.line),
                )
            }
        }
        edit |= p.values[0].trim() != "n";
    }
    if edit {
        b.apply(Action::SetCube { value, owner }, node.line, "cube setting")?;
    }
    Ok(())
}

/// Reads every match of an SGF text (see the module documentation for how games are
/// grouped into matches). `source` names the file in error messages. Every game is
/// replayed and every match validated ([`MatchRecord::validate`]).
pub fn read_sgf(text: &str, source: &str) -> Result<Vec<MatchRecord>, RecordError> {
    read_sgf_inner(text).map_err(|e| e.in_source(source))
}

fn read_sgf_inner(text: &str) -> Result<Vec<MatchRecord>, RecordError> {
    let trees = parse_collection(text)?;
    let mut matches: Vec<MatchRecord> = Vec::new();
    let mut numbers: Vec<Option<usize>> = Vec::new();
    let mut game_no = 0;
    for tree in &trees {
        let nodes = tree.main_line();
        let Some((root_node, rest)) = nodes.split_first() else {
            continue;
        };
        if root_node.value("GM").map(str::trim) != Some("6") {
            continue;
        }
        game_no += 1;
        let root = parse_root(root_node).map_err(|e| e.at_game(game_no))?;
        let continues = matches.last().is_some_and(|m| {
            m.players == root.players
                && m.match_length == root.length
                && m.variant == root.variant
                && match (numbers.last().copied().flatten(), root.game_number) {
                    (Some(prev), Some(n)) => n == prev + 1,
                    (None, None) => true,
                    _ => false,
                }
        });
        if !continues {
            matches.push(MatchRecord {
                players: root.players.clone(),
                match_length: root.length,
                variant: root.variant,
                rules: root.rules,
                info: root.info.clone(),
                games: Vec::new(),
            });
            numbers.clear();
        }
        let game = read_game(&root, rest).map_err(|e| e.at_game(game_no))?;
        if let Some(m) = matches.last_mut() {
            m.rules.beavers |= game.actions.iter().any(|a| matches!(a, Action::Beaver { .. }));
            m.games.push(game);
        }
        numbers.push(root.game_number);
    }
    if game_no == 0 {
        return Err(RecordError::syntax("no backgammon game (GM[6]) in the SGF text"));
    }
    for m in &matches {
        m.validate()?;
    }
    Ok(matches)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::test_games::{crawford_match, money_session, planned_match, Plan};
    use crate::records::RecordErrorKind;

    fn round_trip(m: &MatchRecord) {
        let text = write_sgf(m).unwrap();
        let back = read_sgf(&text, "t.sgf").unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, vec![m.clone()], "{text}");
    }

    #[test]
    fn money_play_round_trips_with_every_cube_and_resignation_action() {
        round_trip(&money_session(5, true));
        let mut m = money_session(6, false);
        m.info = MatchInfo {
            event: Some("club night [3]".into()),
            round: Some("1".into()),
            place: Some("back\\room".into()),
            date: Some(Date {
                year: 2025,
                month: 1,
                day: 31,
            }),
            annotator: Some("bgkit".into()),
            comment: Some("first line\nsecond: line".into()),
            ratings: [Some("1612".into()), None],
        };
        m.players = ["Anne-Marie]".into(), "Bob O'Neil".into()];
        round_trip(&m);
    }

    #[test]
    fn match_play_round_trips_in_every_variant() {
        round_trip(&crawford_match(3));
        for (seed, v) in [
            (4, Variant::Nackgammon),
            (5, Variant::Hypergammon1),
            (6, Variant::Hypergammon3),
        ] {
            round_trip(&planned_match(
                seed,
                3,
                v,
                Rules::default(),
                &[Plan::DoubleTaken, Plan::DoubleDropped],
            ));
        }
        let rules = Rules {
            cube: false,
            crawford: false,
            ..Rules::default()
        };
        round_trip(&planned_match(7, 2, Variant::Backgammon, rules, &[]));
    }

    #[test]
    fn the_writer_uses_gnubgs_layout() {
        let m = crawford_match(3);
        let text = write_sgf(&m).unwrap();
        let first = text.lines().next().unwrap();
        let head = format!(
            "(;FF[4]GM[6]CA[UTF-8]AP[bgkit:{}]MI[length:3][game:0][ws:0][bs:0]PW[white player]PB[black player]RU[Crawford]RE[",
            env!("CARGO_PKG_VERSION")
        );
        assert!(first.starts_with(&head), "{first}");
        assert_eq!(text.matches("(;FF[4]GM[6]").count(), m.games.len());
        assert!(text.contains("RU[Crawford:CrawfordGame]"));
        let money = write_sgf(&money_session(5, true)).unwrap();
        for node in [
            "[double]\n",
            "[take]\n",
            "[drop])",
            "RU[Jacoby:Beavers]",
            "RE[W+",
            "RE[B+",
            "CV[4]CP[",
        ] {
            assert!(money.contains(node), "no {node} in\n{money}");
        }
        // Every move node: colour, two dice high first, pairs of letters.
        for line in text
            .lines()
            .filter(|l| l.starts_with(";W[") || l.starts_with(";B["))
        {
            let v = &line[3..line.len() - if line.ends_with(")") { 2 } else { 1 }];
            if ["double", "take", "drop"].contains(&v) {
                continue;
            }
            let b = v.as_bytes();
            assert!(b[0] >= b[1] && b.len() % 2 == 0, "{line}");
            assert!(b[2..].iter().all(u8::is_ascii_lowercase), "{line}");
        }
    }

    #[test]
    fn an_appended_collection_reads_back_as_its_matches() {
        let a = crawford_match(3);
        let b = money_session(5, false);
        let mut text = String::new();
        for m in [&a, &b] {
            for i in 0..m.games.len() {
                text.push_str(&write_sgf_game(m, i).unwrap());
            }
        }
        // A second copy of `a` starts again at game 0: a new match.
        text.push_str(&write_sgf(&a).unwrap());
        assert_eq!(read_sgf(&text, "all.sgf").unwrap(), vec![a.clone(), b, a]);
    }

    /// gnubg 1.07's own save of a 3-point match it played (tests/data/records): its
    /// analysis properties are skipped; gnubg's view of the file is in the README.
    #[test]
    fn gnubgs_own_save_is_read() {
        let text = include_str!("../../tests/data/records/gnubg-3pt.sgf");
        let m = read_sgf(text, "gnubg-3pt.sgf").unwrap();
        assert_eq!(m.len(), 1);
        let m = &m[0];
        assert_eq!(m.players, ["gnubg", "root"]);
        assert_eq!((m.match_length, m.games.len()), (3, 1));
        assert_eq!(m.games[0].actions.len(), 48);
        assert_eq!(
            m.games[0].result,
            Some(GameResult {
                winner: Seat::Black,
                points: 4,
                resigned: false
            })
        );
        let replay = m.replay(0).unwrap();
        assert_eq!(
            replay.final_position.seen_by(Seat::White).position_id(),
            "AAAAbLcPAgAAAA"
        );
        assert_eq!(replay.cube, 2);
    }

    /// The specification's joined bar entry (`B[61yg]`), cube settings as `CO` (the
    /// specification) and `CP` (gnubg), text before the collection, a variation (only
    /// the main line counts), and a resignation kept only in `RE`, as gnubg keeps it.
    #[test]
    fn joined_pairs_cube_settings_variations_and_bare_resignations_are_read() {
        let text = "junk before (;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]PW[w]PB[b]RE[W+2R]\n\
                    ;W[31hefe];B[21abln];W[62hbmk];B[61yg]\n\
                    ;CO[w]CV[2]\n\
                    (;W[52mhmk])(;W[11hgfe]))\n";
        for text in [text.to_string(), text.replace("CO[w]", "CP[w]")] {
            let m = read_sgf(&text, "t.sgf").unwrap().remove(0);
            let a = &m.games[0].actions;
            let Action::Move { steps, .. } = &a[3] else {
                panic!("{a:?}")
            };
            let pairs: Vec<(u8, u8)> = steps.iter().map(|s| (s.from, s.to)).collect();
            assert_eq!(pairs, [(25, 24), (24, 18)]);
            assert_eq!(
                a[4],
                Action::SetCube {
                    value: 2,
                    owner: Some(Seat::White)
                }
            );
            let Action::Move { dice, .. } = &a[5] else {
                panic!("{a:?}")
            };
            assert_eq!(dice.to_string(), "52");
            // RE[W+2R] with a 2-cube: Black resigned a single game at the end.
            assert_eq!(
                a[6..],
                [
                    Action::Resign {
                        seat: Seat::Black,
                        level: Resignation::Single
                    },
                    Action::AcceptResignation { seat: Seat::White }
                ]
            );
            assert_eq!(m.games[0].result.unwrap().points, 2);
        }
    }

    fn error(text: &str) -> RecordError {
        let e = read_sgf(text, "bad.sgf").unwrap_err();
        assert!(e.to_string().starts_with("bad.sgf: "), "{e}");
        e
    }

    const HEAD: &str = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[w]PB[b]RU[Crawford]\n";

    #[test]
    fn malformed_files_give_clear_errors() {
        let e = error(&format!("{HEAD};W[31hefe];B[21abln]"));
        assert_eq!(e.kind, RecordErrorKind::Syntax);
        assert!(
            e.to_string()
                .contains("game tree opened on line 1 is not closed (file truncated?)"),
            "{e}"
        );
        let e = error(&format!("{HEAD};W[31hefe];B[21abl"));
        assert!(
            e.to_string()
                .contains("property value opened on line 2 is not closed"),
            "{e}"
        );
        let e = error(&format!("{HEAD};W[31hQfe])"));
        assert_eq!(
            e.to_string(),
            "bad.sgf: game 1, action 1, line 2: W[31hQfe]: 'Q' is not a point letter (a-x, y bar, z off)"
        );
        let e = error(&format!("{HEAD};W[31hef])"));
        assert!(e.to_string().contains("odd number of point letters"), "{e}");
        let e = error(&format!("{HEAD};W[71hefe])"));
        assert!(e.to_string().contains("W[71hefe]: invalid dice '71'"), "{e}");
        let e = error(&format!("{HEAD};W[double])"));
        assert!(
            e.to_string().contains("no doubling before the opening roll"),
            "{e}"
        );
        // 8/3 is not a 3 or a 1.
        let e = error(&format!("{HEAD};W[31hcfe])"));
        assert_eq!(e.kind, RecordErrorKind::Illegal);
        assert_eq!(
            e.to_string(),
            "bad.sgf: game 1, action 1, line 2: W[31hcfe]: White 31: 8/3 6/5 is not a legal move"
        );
        // Wrong dice for the move (the 31 point with 42).
        let e = error(&format!("{HEAD};W[42hefe])"));
        assert!(
            e.to_string().contains("White 42: 8/5 6/5 is not a legal move"),
            "{e}"
        );
        // A move in the second game's fourth action, on its own line.
        let good = "(;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]PW[w]PB[b]RE[B+1]\n;W[31hefe]\n;B[double]\n;W[drop])\n";
        let bad = "(;FF[4]GM[6]MI[length:0][game:1][ws:0][bs:1]PW[w]PB[b]\n;W[31hefe]\n;B[21abln]\n;W[62hbmk]\n;B[61yf])";
        let e = error(&format!("{good}{bad}"));
        assert_eq!(
            e.to_string(),
            "bad.sgf: game 2, action 4, line 9: B[61yf]: Black 61: bar/19 is not a legal move"
        );
        let e = error(&format!("{HEAD}RE[W+1];W[31hefe])"));
        assert_eq!(e.kind, RecordErrorKind::Inconsistent);
        assert!(
            e.to_string()
                .contains("RE[W+1] does not match the game: it is unfinished"),
            "{e}"
        );
        let e = error(&format!("{HEAD}RE[X+1];W[31hefe])"));
        assert!(e.to_string().contains("RE[X+1] is not a result"), "{e}");
        let e = error(&format!("{HEAD};AE[a:y]AW[a][a])"));
        assert_eq!(e.kind, RecordErrorKind::Unsupported);
        let e = error("(;FF[4]GM[1]SZ[19];B[pd])");
        assert!(e.to_string().contains("no backgammon game (GM[6])"), "{e}");
        let e = error("(;FF[4]GM[6]MI[length:x])");
        assert!(e.to_string().contains("MI length 'x' is not a number"), "{e}");
        let e = error(&format!("{HEAD};W[31hefe];B[21abln];W[62hbmk];B[61yg];B[43]"));
        assert!(
            e.to_string().contains("Black moves, but it is White's turn")
                || e.to_string().contains("not closed"),
            "{e}"
        );
        assert!(error("").to_string().contains("no backgammon game"));
        let e = error(&format!("{HEAD};W[31hefe]RS[W5])"));
        assert!(e.to_string().contains("level 1-3"), "{e}");
    }
}
