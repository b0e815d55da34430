//! The node tree both FBX encodings share: a node has a name, a list of
//! property values and child nodes. Objects, their `Properties70` and the
//! connections between them are all such nodes.

/// One property value of a node.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A boolean (`C`).
    Bool(bool),
    /// An integer (`Y`, `I`, `L`, or an ASCII integer).
    Int(i64),
    /// A real number (`F`, `D`, or an ASCII real).
    Real(f64),
    /// A string (`S`); a binary object name keeps its `\0\x01` separator.
    Text(String),
    /// Raw bytes (`R`), such as an embedded texture's file.
    Raw(Vec<u8>),
    /// An array of reals (`f`, `d`, or an ASCII `a:` list with a real).
    Reals(Vec<f64>),
    /// An array of integers (`i`, `l`, `b`, or an ASCII `a:` list of integers).
    Ints(Vec<i64>),
}

impl Value {
    /// The value as a number, if it is one.
    pub fn number(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Real(r) => Some(*r),
            Value::Bool(b) => Some(f64::from(u8::from(*b))),
            _ => None,
        }
    }

    /// The value as an integer, if it is a whole number.
    pub fn integer(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            Value::Bool(b) => Some(i64::from(*b)),
            Value::Real(r) if r.fract() == 0.0 && r.abs() < 9.0e15 => Some(*r as i64),
            _ => None,
        }
    }

    /// The value as text, if it is a string.
    pub fn text(&self) -> Option<&str> {
        match self {
            Value::Text(s) => Some(s),
            _ => None,
        }
    }

    /// The bytes a budget counts for this value.
    pub fn bytes(&self) -> usize {
        match self {
            Value::Text(s) => s.len(),
            Value::Raw(r) => r.len(),
            Value::Reals(v) => 8 * v.len(),
            Value::Ints(v) => 8 * v.len(),
            _ => 8,
        }
    }
}

/// A node of the tree.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Node {
    /// The node's name (`Model`, `Vertices`, `P`, …).
    pub name: String,
    /// Its property values in order.
    pub props: Vec<Value>,
    /// Its child nodes in order.
    pub children: Vec<Node>,
}

impl Node {
    /// The first child named `name`.
    pub fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }

    /// Every child named `name`, in order.
    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Node> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// The array a node holds as its first property (a binary array, or
    /// the `a:` list of an ASCII node), as reals.
    pub fn reals(&self) -> Option<Vec<f64>> {
        match self.props.first()? {
            Value::Reals(v) => Some(v.clone()),
            Value::Ints(v) => Some(v.iter().map(|&i| i as f64).collect()),
            single => single.number().map(|n| vec![n]),
        }
    }

    /// The array a node holds as its first property, as integers; `None`
    /// when a value is not whole.
    pub fn ints(&self) -> Option<Vec<i64>> {
        match self.props.first()? {
            Value::Ints(v) => Some(v.clone()),
            Value::Reals(v) => v
                .iter()
                .map(|r| Value::Real(*r).integer())
                .collect::<Option<Vec<_>>>(),
            single => single.integer().map(|n| vec![n]),
        }
    }

    /// The first property as text.
    pub fn text(&self) -> Option<&str> {
        self.props.first().and_then(Value::text)
    }
}

/// Where a node sits, for errors: `Objects/Geometry[3]/Vertices`, the
/// index counting the node's earlier siblings of the same name.
#[derive(Clone, Debug, Default)]
pub struct NodePath(Vec<(String, usize)>);

impl NodePath {
    /// This path with one more step.
    pub fn with(&self, name: &str, index: usize) -> NodePath {
        let mut steps = self.0.clone();
        steps.push((name.to_owned(), index));
        NodePath(steps)
    }

    /// The path of a top-level node.
    pub fn top(name: &str) -> NodePath {
        NodePath::default().with(name, 0)
    }
}

impl std::fmt::Display for NodePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            return write!(f, "(top)");
        }
        for (k, (name, index)) in self.0.iter().enumerate() {
            if k > 0 {
                write!(f, "/")?;
            }
            // Objects are told apart by their index among their kind
            // (`Objects/Geometry[3]`); deeper nodes only when repeated.
            if k == 1 || *index > 0 && k > 1 {
                write!(f, "{name}[{index}]")?;
            } else {
                write!(f, "{name}")?;
            }
        }
        Ok(())
    }
}

/// Counts siblings by name while a parser goes through a node's children.
#[derive(Default)]
pub struct SiblingCounter(std::collections::HashMap<String, usize>);

impl SiblingCounter {
    /// The index of the next sibling named `name`.
    pub fn next(&mut self, name: &str) -> usize {
        let slot = self.0.entry(name.to_owned()).or_insert(0);
        *slot += 1;
        *slot - 1
    }
}
