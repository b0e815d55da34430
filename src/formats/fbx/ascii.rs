//! The ASCII encoding: `Name: value, value, … { children }`, strings in
//! double quotes, `;` comments to the end of the line, and arrays written
//! `Vertices: *12 { a: 0,1,2,… }`. An array becomes one array value of its
//! node, as the binary encoding stores it, so the objects read alike from
//! both encodings.

use super::tree::{Node, NodePath, SiblingCounter, Value};
use super::{Budget, FbxError, MAX_DEPTH};

/// Parses an ASCII file's top-level nodes.
pub fn parse(text: &str, budget: &mut Budget) -> Result<Vec<Node>, FbxError> {
    let mut parser = Parser {
        lexer: Lexer {
            bytes: text.as_bytes(),
            pos: 0,
            line: 1,
        },
        budget,
    };
    let top = NodePath::default();
    let nodes = parser.nodes(&top, 0)?;
    match parser.lexer.next(&top)? {
        None => Ok(nodes),
        Some(token) => Err(parser.lexer.unexpected(&top, &token)),
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    /// `Name:` — a node's name.
    Name(String),
    /// A bare word that is a value (`T`, `Y`, `W`).
    Word(String),
    Text(String),
    Int(i64),
    Real(f64),
    /// `*N`: an array's length.
    Count(usize),
    Comma,
    Open,
    Close,
}

struct Lexer<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
}

impl Lexer<'_> {
    fn skip_space(&mut self) {
        while let Some(&c) = self.bytes.get(self.pos) {
            if c == b'\n' {
                self.line += 1;
                self.pos += 1;
            } else if c.is_ascii_whitespace() {
                self.pos += 1;
            } else if c == b';' {
                while self.bytes.get(self.pos).is_some_and(|&c| c != b'\n') {
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    fn error(&self, path: &NodePath, problem: String) -> FbxError {
        FbxError::Malformed {
            path: path.to_string(),
            problem: format!("line {}: {problem}", self.line),
        }
    }

    fn unexpected(&self, path: &NodePath, token: &Token) -> FbxError {
        self.error(path, format!("unexpected {token:?}"))
    }

    fn peek(&mut self, path: &NodePath) -> Result<Option<Token>, FbxError> {
        let (pos, line) = (self.pos, self.line);
        let token = self.next(path);
        self.pos = pos;
        self.line = line;
        token
    }

    fn next(&mut self, path: &NodePath) -> Result<Option<Token>, FbxError> {
        self.skip_space();
        let Some(&c) = self.bytes.get(self.pos) else {
            return Ok(None);
        };
        let start = self.pos;
        self.pos += 1;
        Ok(Some(match c {
            b',' => Token::Comma,
            b'{' => Token::Open,
            b'}' => Token::Close,
            b'"' => {
                let end = self.bytes[self.pos..]
                    .iter()
                    .position(|&c| c == b'"')
                    .ok_or_else(|| self.error(path, "a string is not closed".to_owned()))?;
                let text = &self.bytes[self.pos..self.pos + end];
                self.line += text.iter().filter(|&&c| c == b'\n').count();
                self.pos += end + 1;
                Token::Text(String::from_utf8_lossy(text).replace("&quot;", "\""))
            }
            b'*' => {
                let digits = self.run(|c| c.is_ascii_digit());
                let count = digits
                    .parse()
                    .map_err(|_| self.error(path, format!("'*{digits}' is not an array length")))?;
                Token::Count(count)
            }
            b'-' | b'+' | b'.' | b'0'..=b'9' => {
                self.pos = start;
                let word = self
                    .run(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.' | b'#'));
                if let Ok(int) = word.parse::<i64>() {
                    Token::Int(int)
                } else {
                    let real = word
                        .parse::<f64>()
                        .map_err(|_| self.error(path, format!("'{word}' is not a number")))?;
                    Token::Real(real)
                }
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                self.pos = start;
                let word =
                    self.run(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'|' | b'-'));
                let after = self.pos;
                self.skip_space_on_line();
                if self.bytes.get(self.pos) == Some(&b':') {
                    self.pos += 1;
                    Token::Name(word)
                } else {
                    self.pos = after;
                    Token::Word(word)
                }
            }
            other => {
                return Err(self.error(
                    path,
                    format!("unexpected character {:?}", char::from(other)),
                ))
            }
        }))
    }

    fn skip_space_on_line(&mut self) {
        while self
            .bytes
            .get(self.pos)
            .is_some_and(|&c| c == b' ' || c == b'\t')
        {
            self.pos += 1;
        }
    }

    fn run(&mut self, keep: impl Fn(u8) -> bool) -> String {
        let start = self.pos;
        while self.bytes.get(self.pos).is_some_and(|&c| keep(c)) {
            self.pos += 1;
        }
        String::from_utf8_lossy(&self.bytes[start..self.pos]).into_owned()
    }
}

struct Parser<'a, 'b> {
    lexer: Lexer<'a>,
    budget: &'b mut Budget,
}

impl Parser<'_, '_> {
    /// Nodes until a `}` or the end (neither consumed).
    fn nodes(&mut self, parent: &NodePath, depth: usize) -> Result<Vec<Node>, FbxError> {
        let mut nodes = Vec::new();
        let mut siblings = SiblingCounter::default();
        loop {
            match self.lexer.peek(parent)? {
                None | Some(Token::Close) => return Ok(nodes),
                Some(Token::Name(name)) => {
                    self.lexer.next(parent)?;
                    let path = parent.with(&name, siblings.next(&name));
                    if depth >= MAX_DEPTH {
                        return Err(FbxError::TooDeep {
                            path: path.to_string(),
                            max: MAX_DEPTH,
                        });
                    }
                    nodes.push(self.node(name, &path, depth)?);
                }
                Some(token) => return Err(self.lexer.unexpected(parent, &token)),
            }
        }
    }

    fn node(&mut self, name: String, path: &NodePath, depth: usize) -> Result<Node, FbxError> {
        self.budget.charge(64, path)?;
        let mut node = Node {
            name,
            ..Node::default()
        };
        let mut count = None;
        loop {
            match self.lexer.peek(path)? {
                Some(Token::Open) => {
                    self.lexer.next(path)?;
                    node.children = self.nodes(path, depth + 1)?;
                    match self.lexer.next(path)? {
                        Some(Token::Close) => break,
                        Some(token) => return Err(self.lexer.unexpected(path, &token)),
                        None => {
                            return Err(self.lexer.error(path, "a '{' is not closed".to_owned()))
                        }
                    }
                }
                None | Some(Token::Close) | Some(Token::Name(_)) => break,
                Some(_) => {
                    let token = self.lexer.next(path)?.unwrap_or(Token::Comma);
                    let value = match token {
                        Token::Count(n) => {
                            count = Some(n);
                            continue;
                        }
                        Token::Comma => continue,
                        Token::Int(i) => Value::Int(i),
                        Token::Real(r) => Value::Real(r),
                        Token::Text(s) => Value::Text(s),
                        Token::Word(w) => Value::Text(w),
                        other => return Err(self.lexer.unexpected(path, &other)),
                    };
                    self.budget.charge(value.bytes(), path)?;
                    node.props.push(value);
                }
            }
        }
        // `Name: *N { a: … }`: the list becomes the node's array value.
        if let Some(count) = count {
            let values = node
                .children
                .iter()
                .find(|c| c.name == "a")
                .map(|a| a.props.as_slice())
                .unwrap_or_default();
            if values.len() != count {
                return Err(FbxError::Malformed {
                    path: path.to_string(),
                    problem: format!("*{count} declared, {} values listed", values.len()),
                });
            }
            let array = if values.iter().all(|v| matches!(v, Value::Int(_))) {
                Value::Ints(values.iter().filter_map(Value::integer).collect())
            } else {
                Value::Reals(
                    values
                        .iter()
                        .map(|v| {
                            v.number().ok_or_else(|| FbxError::Malformed {
                                path: path.to_string(),
                                problem: "an array holds a value that is not a number".to_owned(),
                            })
                        })
                        .collect::<Result<_, _>>()?,
                )
            };
            node.props = vec![array];
            node.children.clear();
        }
        Ok(node)
    }
}
