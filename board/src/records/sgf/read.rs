//! Reading SGF: the backgammon meaning of the game trees (root properties, moves, cube
//! actions, resignations), every action checked as it is read (see [`super`]).

use crate::dice::Dice;
use crate::records::error::RecordError;
use crate::records::game::Builder;
use crate::records::model::{
    Action, Date, GameRecord, GameResult, MatchInfo, MatchRecord, Resignation, Rules, Seat,
};
use crate::variant::Variant;

use super::syntax::{parse_collection, Node};

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
        text.trim().parse::<u32>().map_err(|_| {
            let t = text.trim();
            let why = if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
                "is too large"
            } else {
                "is not a number"
            };
            RecordError::syntax(format!("MI {what} '{text}' {why}")).at_line(line)
        })
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
                        "length" => {
                            root.length = number(value, "length", p.line)?;
                            MatchRecord::check_length(root.length).map_err(|e| e.at_line(p.line))?;
                        }
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
fn describe_result(result: Option<GameResult>) -> String {
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
