//! SGF syntax, independent of the game: a collection of game trees, each a sequence of
//! nodes of properties with variations, read with line numbers for error messages.

use crate::records::error::RecordError;

#[derive(Clone, Debug)]
pub(super) struct Property {
    pub(super) ident: String,
    pub(super) values: Vec<String>,
    pub(super) line: usize,
}

#[derive(Clone, Debug)]
pub(super) struct Node {
    pub(super) props: Vec<Property>,
    pub(super) line: usize,
}

impl Node {
    pub(super) fn get(&self, ident: &str) -> Option<&Property> {
        self.props.iter().find(|p| p.ident == ident)
    }

    pub(super) fn value(&self, ident: &str) -> Option<&str> {
        self.get(ident).and_then(|p| p.values.first()).map(String::as_str)
    }
}

#[derive(Clone, Debug, Default)]
pub(super) struct Tree {
    nodes: Vec<Node>,
    children: Vec<Tree>,
}

impl Tree {
    /// The nodes of the main line: this tree's, then its first variation's, and so on.
    pub(super) fn main_line(&self) -> Vec<&Node> {
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

pub(super) fn parse_collection(text: &str) -> Result<Vec<Tree>, RecordError> {
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
