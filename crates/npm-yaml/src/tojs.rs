//! `toJS` (`nodes/*.ts`, `addPairToJSMap`): the node tree to JS values, iteratively.
//!
//! Reproduces: alias resolution and the `maxAliasCount` (100) rule,
//! `addPairToJSMap` key stringification, `!!set`/`!!omap`/`!!pairs`/`!!merge`.

use crate::aliases::{AliasTally, EXCESSIVE_ALIAS_COUNT};
use crate::compose::doc::{CollKind, Doc, NodeKind, ScalarStyle};
use crate::js::hashing::{FastMap, KeyIndex};
use crate::js::number::js_number_to_string;
use crate::js::{JsStr, Object, Value, date_to_string, json_stringify_utf16};
use crate::keystr;
use crate::schema::Scalar;

/// What `toJS` throws: the error's name (`ReferenceError`, `Error`, `TypeError`, ...) and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    pub name: &'static str,
    pub message: String,
}

impl Diag {
    pub fn bare(name: &'static str, message: String) -> Self {
        Diag { name, message }
    }
}

struct AnchorData {
    res: Option<Value>,
    tally: AliasTally,
}

/// A converted value plus its JS object identity (node id) when it is an object.
struct Res {
    v: Value,
    ident: Option<usize>,
}

/// Output container of a map-like frame.
enum MapOut {
    Object(ObjBuilder),
    JsMap(Vec<(Value, Value)>, Vec<Option<usize>>, SvzIndex),
    Set(Vec<Value>, Vec<Option<usize>>, SvzIndex),
}

/// The entries of a JS `Map` or `Set` being built, by SameValueZero: a lookup per entry, not a
/// scan of the entries so far (a `!!set` of 50,000 keys took 18 s). Each position's hash chain
/// links the earlier positions with the same hash; values that equal nothing (an object without
/// identity) are not linked.
#[derive(Default)]
struct SvzIndex {
    first: FastMap<u64, u32>,
    next: Vec<u32>,
}

const NO_POS: u32 = u32::MAX;

impl SvzIndex {
    /// A hash equal for any two values `same_value_zero` calls equal; `None` for a value it calls
    /// equal to nothing.
    fn hash(v: &Value, id: Option<usize>) -> Option<u64> {
        use crate::js::hashing::{Svz, svz_hash};
        Some(svz_hash(match v {
            Value::Null | Value::Undefined => Svz::Null,
            Value::Bool(b) => Svz::Bool(*b),
            Value::Number(x) => Svz::Number(*x),
            Value::String(s) => Svz::Str(s.as_str()),
            _ => Svz::Object(id?),
        }))
    }

    /// The position of an entry equal to `v` (`eq` compares with the entry at a position).
    fn find(&self, v: &Value, id: Option<usize>, eq: impl Fn(usize) -> bool) -> Option<usize> {
        let mut at = *self.first.get(&Self::hash(v, id)?)?;
        while at != NO_POS {
            if eq(at as usize) {
                return Some(at as usize);
            }
            at = self.next[at as usize];
        }
        None
    }

    /// Record the next position's value.
    fn push(&mut self, v: &Value, id: Option<usize>) {
        let pos = self.next.len() as u32;
        let prev = match Self::hash(v, id) {
            Some(h) => self.first.insert(h, pos).unwrap_or(NO_POS),
            None => NO_POS,
        };
        self.next.push(prev);
    }
}

struct ObjBuilder {
    entries: Vec<(JsStr, Value)>,
    index: Option<KeyIndex>,
}

impl ObjBuilder {
    fn new() -> Self {
        ObjBuilder { entries: Vec::new(), index: None }
    }
    fn position(&self, k: &JsStr) -> Option<usize> {
        match &self.index {
            Some(ix) => ix.find_by(k, |i| self.entries[i].0 == *k),
            None => self.entries.iter().position(|(e, _)| e == k),
        }
    }
    fn has(&self, k: &JsStr) -> bool {
        self.position(k).is_some()
    }
    fn set(&mut self, k: JsStr, v: Value) {
        if let Some(i) = self.position(&k) {
            self.entries[i].1 = v;
            return;
        }
        if let Some(ix) = &mut self.index {
            ix.push(&k);
        }
        self.entries.push((k, v));
        if self.index.is_none() && self.entries.len() > 16 {
            let mut ix = KeyIndex::with_capacity(self.entries.len() * 2);
            for (k, _) in &self.entries {
                ix.push(k);
            }
            self.index = Some(ix);
        }
    }
    fn finish(self) -> Object {
        Object::from_parts(self.entries, self.index)
    }
}

enum Frame {
    Seq {
        node: usize,
        idx: usize,
        out: Vec<Value>,
    },
    /// `!!pairs`: array of single-pair objects; `!!omap`: JS Map
    PairSeq {
        node: usize,
        idx: usize,
        omap: bool,
        /// 0 = next is key, 1 = next is value
        phase: u8,
        key: Option<Res>,
        out_pairs: Vec<Value>,
        out_map: Vec<(Value, Value)>,
        out_ids: Vec<Option<usize>>,
        out_index: SvzIndex,
    },
    Map {
        node: usize,
        idx: usize,
        /// 0 = key next, 1 = value next
        phase: u8,
        key: Option<(Res, JsStr)>,
        out: MapOut,
        top_level: bool,
    },
}

#[derive(Debug, Clone)]
pub struct TopKey {
    pub key: String,
    pub key_node: usize,
    pub value_node: Option<usize>,
    /// the key node's `range` (`[start, valueEnd, nodeEnd]`, bytes)
    pub key_range: [u32; 3],
    /// the value node's `range` (`None` for a pair without value)
    pub value_range: Option<[u32; 3]>,
}

pub struct ToJs<'d> {
    doc: &'d Doc,
    anchors: FastMap<usize, AnchorData>,
    /// How many of `anchors`' nodes carry each anchor name: the names a collection key's
    /// stringifier knows, kept as `anchors` changes rather than listed for every such key (a
    /// file of many anchors and many collection keys was quadratic).
    anchor_names: FastMap<String, u32>,
    /// `process.emitWarning` texts (`Warning: ...`)
    pub warnings: Vec<String>,
    map_key_warned: bool,
    pub top_keys: Vec<TopKey>,
}

enum Next {
    Node(usize),
    Null,
    Done,
}

enum Step {
    Done(Res),
    Pushed,
}

impl<'d> ToJs<'d> {
    pub fn new(doc: &'d Doc) -> Self {
        ToJs {
            doc,
            anchors: FastMap::default(),
            anchor_names: FastMap::default(),
            warnings: Vec::new(),
            map_key_warned: false,
            top_keys: Vec::new(),
        }
    }

    /// Register `id`'s anchor data (a node registered again keeps one count).
    fn anchor_insert(&mut self, id: usize, data: AnchorData) {
        if self.anchors.insert(id, data).is_none()
            && let Some(name) = &self.doc.nodes[id].anchor
        {
            *self.anchor_names.entry(name.clone()).or_insert(0) += 1;
        }
    }

    fn anchor_remove(&mut self, id: usize) -> Option<AnchorData> {
        let data = self.anchors.remove(&id)?;
        if let Some(name) = &self.doc.nodes[id].anchor
            && let Some(n) = self.anchor_names.get_mut(name)
        {
            *n -= 1;
            if *n == 0 {
                self.anchor_names.remove(name);
            }
        }
        Some(data)
    }

    pub fn run(&mut self) -> Result<Value, Diag> {
        match self.doc.root {
            None => Ok(Value::Null),
            Some(r) => Ok(self.convert(r, true, false)?.v),
        }
    }

    fn scalar_value(s: &Scalar) -> Value {
        match s {
            Scalar::Null => Value::Null,
            Scalar::Bool(b) => Value::Bool(*b),
            Scalar::Number(x) => Value::Number(*x),
            Scalar::Str(s) => Value::String(s.clone()),
            Scalar::Date(t) => Value::Date(*t),
            Scalar::Buffer(b) => Value::Buffer(b.clone()),
            // A JS Symbol: a `!!merge`-tagged scalar that is not a key.
            Scalar::Merge => Value::Symbol("<<".into()),
        }
    }

    /// Start converting `id`: either a finished value or a pushed frame.
    fn start(&mut self, id: usize, stack: &mut Vec<Frame>, top_level: bool, as_js_map: bool) -> Result<Step, Diag> {
        let node = &self.doc.nodes[id];
        if node.anchor.is_some() && !matches!(node.kind, NodeKind::Alias { .. }) {
            // (re-)register the anchor; `res` set on completion (onCreate)
            self.anchor_insert(id, AnchorData { res: None, tally: AliasTally::default() });
        }
        match &node.kind {
            NodeKind::Scalar { value, .. } => {
                let v = Self::scalar_value(value);
                let ident = match value {
                    Scalar::Date(_) | Scalar::Buffer(_) => Some(id),
                    _ => None,
                };
                if node.anchor.is_some()
                    && let Some(d) = self.anchors.get_mut(&id)
                {
                    d.res = Some(v.clone());
                }
                Ok(Step::Done(Res { v, ident }))
            }
            NodeKind::Alias { name, target } => self.alias(name, *target).map(Step::Done),
            NodeKind::Seq { kind, .. } => {
                match kind {
                    CollKind::Omap | CollKind::Pairs => stack.push(Frame::PairSeq {
                        node: id,
                        idx: 0,
                        omap: *kind == CollKind::Omap,
                        phase: 0,
                        key: None,
                        out_pairs: Vec::new(),
                        out_map: Vec::new(),
                        out_ids: Vec::new(),
                        out_index: SvzIndex::default(),
                    }),
                    _ => stack.push(Frame::Seq { node: id, idx: 0, out: Vec::new() }),
                }
                Ok(Step::Pushed)
            }
            NodeKind::Map { kind, .. } => {
                let out = if as_js_map {
                    MapOut::JsMap(Vec::new(), Vec::new(), SvzIndex::default())
                } else if *kind == CollKind::Set {
                    MapOut::Set(Vec::new(), Vec::new(), SvzIndex::default())
                } else {
                    MapOut::Object(ObjBuilder::new())
                };
                stack.push(Frame::Map {
                    node: id,
                    idx: 0,
                    phase: 0,
                    key: None,
                    out,
                    top_level: top_level && *kind == CollKind::Map && !as_js_map,
                });
                Ok(Step::Pushed)
            }
        }
    }

    fn alias(&mut self, name: &str, target: Option<usize>) -> Result<Res, Diag> {
        let Some(src) = target else {
            return Err(Diag::bare(
                "ReferenceError",
                format!("Unresolved alias (the anchor must be set before the alias): {name}"),
            ));
        };
        if !self.anchors.contains_key(&src) {
            // "Resolve anchors for Node.prototype.toJS()"
            self.convert(src, false, false)?;
        }
        let needs_leaves = self.anchors.get(&src).is_some_and(|d| d.tally.needs_leaves());
        let leaves = needs_leaves.then(|| self.get_alias_count(src));
        let Some(data) = self.anchors.get_mut(&src) else {
            return Err(Diag::bare("ReferenceError", "This should not happen: Alias anchor was not resolved?".into()));
        };
        if !data.tally.alias(leaves) {
            return Err(Diag::bare("ReferenceError", EXCESSIVE_ALIAS_COUNT.into()));
        }
        let v = match &data.res {
            Some(v) => v.clone(),
            None => Value::Circular,
        };
        let ident = match v {
            Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => None,
            _ => Some(src),
        };
        Ok(Res { v, ident })
    }

    /// `getAliasCount(doc, node, anchors)`: max over leaves (scalar = 1,
    /// alias = its anchor's count * aliasCount), 0 for no leaves.
    fn get_alias_count(&self, id: usize) -> f64 {
        let mut max: f64 = 0.0;
        let mut st = vec![id];
        while let Some(n) = st.pop() {
            match &self.doc.nodes[n].kind {
                NodeKind::Scalar { .. } => max = max.max(1.0),
                NodeKind::Alias { target, .. } => {
                    let c = target.and_then(|t| self.anchors.get(&t)).map_or(0.0, |d| d.tally.weight());
                    max = max.max(c);
                }
                NodeKind::Seq { items, .. } => st.extend(items.iter().copied()),
                NodeKind::Map { pairs, .. } => {
                    for &(k, v) in pairs {
                        st.push(k);
                        st.extend(v);
                    }
                }
            }
        }
        max
    }

    /// Convert a node (iteratively).
    fn convert(&mut self, id: usize, top_level: bool, as_js_map: bool) -> Result<Res, Diag> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut pending: Option<Res> = match self.start(id, &mut stack, top_level, as_js_map)? {
            Step::Done(r) => return Ok(r),
            Step::Pushed => None,
        };
        loop {
            // deliver a finished child to the top frame
            if let Some(r) = pending.take() {
                let Some(top) = stack.last_mut() else {
                    return Ok(r);
                };
                self.deliver(top, r)?;
            }
            let Some(top) = stack.last_mut() else { unreachable!() };
            match self.next_child(top) {
                Next::Node(child) => match self.start(child, &mut stack, false, false)? {
                    Step::Done(r) => pending = Some(r),
                    Step::Pushed => {}
                },
                Next::Null => pending = Some(Res { v: Value::Null, ident: None }),
                Next::Done => {
                    let frame = stack.pop().unwrap();
                    let r = self.finish(frame)?;
                    if stack.is_empty() {
                        return Ok(r);
                    }
                    pending = Some(r);
                }
            }
        }
    }

    /// The next node to convert for this frame, or None when complete.
    fn next_child(&self, f: &Frame) -> Next {
        match f {
            Frame::Seq { node, idx, .. } => match &self.doc.nodes[*node].kind {
                NodeKind::Seq { items, .. } => items.get(*idx).map_or(Next::Done, |&c| Next::Node(c)),
                _ => Next::Done,
            },
            Frame::PairSeq { node, idx, phase, .. } => {
                let NodeKind::Seq { items, .. } = &self.doc.nodes[*node].kind else {
                    return Next::Done;
                };
                let Some(&item) = items.get(*idx) else {
                    return Next::Done;
                };
                let (k, v) = self.pair_of_item(item);
                match if *phase == 0 { k } else { v } {
                    Some(n) => Next::Node(n),
                    None => Next::Null,
                }
            }
            Frame::Map { node, idx, phase, .. } => {
                let NodeKind::Map { pairs, .. } = &self.doc.nodes[*node].kind else {
                    return Next::Done;
                };
                match pairs.get(*idx) {
                    Some(&(k, _)) if *phase == 0 => Next::Node(k),
                    Some(&(_, Some(v))) => Next::Node(v),
                    Some(&(_, None)) => Next::Null,
                    None => Next::Done,
                }
            }
        }
    }

    /// `resolvePairs` view of a `!!pairs`/`!!omap` item: (key, value) nodes.
    fn pair_of_item(&self, item: usize) -> (Option<usize>, Option<usize>) {
        match &self.doc.nodes[item].kind {
            NodeKind::Map { pairs, .. } => match pairs.first() {
                Some(&(k, v)) => (Some(k), v),
                None => (None, None),
            },
            _ => (Some(item), None),
        }
    }

    fn deliver(&mut self, f: &mut Frame, r: Res) -> Result<(), Diag> {
        match f {
            Frame::Seq { out, idx, .. } => {
                out.push(r.v);
                *idx += 1;
            }
            Frame::PairSeq { node, idx, omap, phase, key, out_pairs, out_map, out_ids, out_index } => {
                if *phase == 0 {
                    *key = Some(r);
                    *phase = 1;
                } else {
                    let k = key.take().unwrap();
                    *phase = 0;
                    let item = match &self.doc.nodes[*node].kind {
                        NodeKind::Seq { items, .. } => items[*idx],
                        _ => unreachable!(),
                    };
                    *idx += 1;
                    if *omap {
                        let dup = out_index
                            .find(&k.v, k.ident, |i| same_value_zero(&out_map[i].0, out_ids[i], &k.v, k.ident));
                        if dup.is_some() {
                            return Err(Diag::bare("Error", "Ordered maps must not include duplicate keys".into()));
                        }
                        out_index.push(&k.v, k.ident);
                        out_ids.push(k.ident);
                        out_map.push((k.v, r.v));
                    } else {
                        let key_node = self.pair_of_item(item).0;
                        let sk = self.stringify_key(key_node, &k.v)?;
                        let mut o = ObjBuilder::new();
                        o.set(sk, r.v);
                        out_pairs.push(Value::Object(o.finish()));
                    }
                }
            }
            Frame::Map { node, idx, phase, key, out, top_level } => {
                let NodeKind::Map { pairs, .. } = &self.doc.nodes[*node].kind else { unreachable!() };
                let (knode, vnode) = pairs[*idx];
                if *phase == 0 {
                    // merge key (`!!merge <<`; under yaml-1.1 also a plain `<<` string key)
                    if self.is_merge_key(knode) {
                        let Some(vnode) = vnode else {
                            return Err(Diag::bare("Error", "Merge sources must be maps or map aliases".into()));
                        };
                        self.merge(out, vnode)?;
                        *idx += 1;
                        return Ok(());
                    }
                    match out {
                        MapOut::Set(vals, ids, index) => {
                            if index.find(&r.v, r.ident, |i| same_value_zero(&vals[i], ids[i], &r.v, r.ident)).is_none()
                            {
                                index.push(&r.v, r.ident);
                                vals.push(r.v);
                                ids.push(r.ident);
                            }
                            *idx += 1;
                        }
                        MapOut::JsMap(..) => {
                            *key = Some((r, JsStr::default()));
                            *phase = 1;
                        }
                        MapOut::Object(_) => {
                            // A string key is its own property name: moved, not copied (the key's
                            // value is not read again on this path).
                            let mut r = r;
                            let sk = match &mut r.v {
                                Value::String(s) => std::mem::take(s),
                                v => self.stringify_key(Some(knode), v)?,
                            };
                            *key = Some((r, sk));
                            *phase = 1;
                        }
                    }
                } else {
                    let (k, sk) = key.take().unwrap();
                    *phase = 0;
                    *idx += 1;
                    match out {
                        MapOut::Object(o) => {
                            if *top_level {
                                self.top_keys.push(TopKey {
                                    key: sk.as_str().to_owned(),
                                    key_node: knode,
                                    value_node: vnode,
                                    key_range: self.doc.nodes[knode].range,
                                    value_range: vnode.map(|v| self.doc.nodes[v].range),
                                });
                            }
                            o.set(sk, r.v);
                        }
                        MapOut::JsMap(m, ids, index) => {
                            if let Some(i) =
                                index.find(&k.v, k.ident, |i| same_value_zero(&m[i].0, ids[i], &k.v, k.ident))
                            {
                                m[i].1 = r.v;
                            } else {
                                index.push(&k.v, k.ident);
                                ids.push(k.ident);
                                m.push((k.v, r.v));
                            }
                        }
                        MapOut::Set(..) => {}
                    }
                }
            }
        }
        Ok(())
    }

    fn finish(&mut self, f: Frame) -> Result<Res, Diag> {
        let (id, v) = match f {
            Frame::Seq { node, out, .. } => (node, Value::Array(out)),
            Frame::PairSeq { node, omap, out_pairs, out_map, .. } => {
                (node, if omap { Value::Map(out_map) } else { Value::Array(out_pairs) })
            }
            Frame::Map { node, out, .. } => (
                node,
                match out {
                    MapOut::Object(o) => Value::Object(o.finish()),
                    MapOut::JsMap(m, ..) => Value::Map(m),
                    MapOut::Set(s, ..) => Value::Set(s),
                },
            ),
        };
        if self.doc.nodes[id].anchor.is_some()
            && let Some(d) = self.anchors.get_mut(&id)
            && d.res.is_none()
        {
            d.res = Some(v.clone());
        }
        Ok(Res { v, ident: Some(id) })
    }

    /// `stringifyKey(key, jsKey, ctx)`
    fn stringify_key(&mut self, key_node: Option<usize>, v: &Value) -> Result<JsStr, Diag> {
        Ok(match v {
            Value::Null => JsStr::default(),
            Value::Bool(b) => b.to_string().into(),
            Value::Number(x) => js_number_to_string(*x).into(),
            Value::String(s) => s.clone(),
            Value::Symbol(d) => format!("Symbol({d})").into(),
            _ => {
                let s: JsStr = match key_node.map(|k| (k, &self.doc.nodes[k].kind)) {
                    Some((_, NodeKind::Scalar { value, .. })) => match value {
                        Scalar::Date(t) => date_to_string(*t).into(),
                        Scalar::Buffer(b) => String::from_utf8_lossy(b).into_owned().into(),
                        other => scalar_js_string(other),
                    },
                    // lone surrogates come out as `\udxxx` escapes
                    Some((k, _)) => keystr::stringify_key_node(self.doc, k, &self.anchor_names)?.into(),
                    None => js_to_string(v),
                };
                if !self.map_key_warned {
                    let mut json = String::new();
                    json_stringify_utf16(&s.to_utf16(), &mut json);
                    let units: Vec<u16> = json.encode_utf16().collect();
                    if units.len() > 40 {
                        json = String::from_utf16_lossy(&units[..36]) + "...\"";
                    }
                    self.warnings.push(format!(
                        "Warning: Keys with collection values will be stringified due to JS Object restrictions: {json}. Set mapAsMap: true to use object keys."
                    ));
                    self.map_key_warned = true;
                }
                s
            }
        })
    }

    /// `key.addToJSMap` (a `merge`-tagged key) or `isMergeKey(ctx, key)`.
    fn is_merge_key(&self, key: usize) -> bool {
        match &self.doc.nodes[key].kind {
            NodeKind::Scalar { value: Scalar::Merge, .. } => true,
            NodeKind::Scalar { value: Scalar::Str(s), style: ScalarStyle::Plain, .. } => {
                s == "<<" && self.doc.schema.merges_plain_string_key()
            }
            _ => false,
        }
    }

    /// `addMergeToJSMap`
    fn merge(&mut self, out: &mut MapOut, value_node: usize) -> Result<(), Diag> {
        let resolve = |me: &Self, n: usize| -> usize {
            match &me.doc.nodes[n].kind {
                NodeKind::Alias { target: Some(t), .. } => *t,
                _ => n,
            }
        };
        let src = resolve(self, value_node);
        let sources: Vec<usize> = match &self.doc.nodes[src].kind {
            NodeKind::Seq { items, kind: CollKind::Seq, .. } => items.iter().map(|&i| resolve(self, i)).collect(),
            // `!!omap`/`!!pairs` items are `Pair`s, which are not maps
            NodeKind::Seq { items, .. } if !items.is_empty() => {
                return Err(Diag::bare("Error", "Merge sources must be maps or map aliases".into()));
            }
            NodeKind::Seq { .. } => Vec::new(),
            _ => vec![src],
        };
        for s in sources {
            if !matches!(self.doc.nodes[s].kind, NodeKind::Map { .. }) {
                return Err(Diag::bare("Error", "Merge sources must be maps or map aliases".into()));
            }
            // source.toJSON(null, ctx, Map): the node's own anchor is not registered
            let saved_anchor = self.anchor_remove(s);
            let m = self.convert_as_js_map(s)?;
            if let Some(a) = saved_anchor {
                self.anchor_insert(s, a);
            }
            // A `!!set` is a JS Set whatever `toJSON` is asked for: `for (const [key, value] of
            // srcMap)` destructures each of its values.
            let m = match self.doc.nodes[s].kind {
                NodeKind::Map { kind: CollKind::Set, .. } => {
                    m.into_iter().map(|(k, _)| destructure_pair(k)).collect::<Result<Vec<_>, Diag>>()?
                }
                _ => m,
            };
            for (k, v) in m {
                match out {
                    MapOut::Object(o) => {
                        let pk = js_to_string(&k);
                        if !o.has(&pk) {
                            o.set(pk, v);
                        }
                    }
                    MapOut::Set(vals, ids, index) => {
                        if index.find(&k, None, |i| same_value_zero(&vals[i], None, &k, None)).is_none() {
                            index.push(&k, None);
                            vals.push(k);
                            ids.push(None);
                        }
                    }
                    MapOut::JsMap(m, ids, index) => {
                        if index.find(&k, None, |i| same_value_zero(&m[i].0, None, &k, None)).is_none() {
                            index.push(&k, None);
                            m.push((k, v));
                            ids.push(None);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn convert_as_js_map(&mut self, id: usize) -> Result<Vec<(Value, Value)>, Diag> {
        let anchor = self.doc.nodes[id].anchor.is_some();
        let r = self.convert(id, false, true)?;
        if anchor {
            self.anchor_remove(id);
        }
        Ok(match r.v {
            Value::Map(m) => m,
            _ => Vec::new(),
        })
    }
}

/// `const [key, value] = v`: the first two items of an iterable (`undefined` when missing).
/// Strings iterate by code point (a lone surrogate is one), Maps by `[key, value]` entries,
/// Buffers by byte; anything else is not iterable.
fn destructure_pair(v: Value) -> Result<(Value, Value), Diag> {
    let items: Vec<Value> = match v {
        Value::String(s) => {
            let units = s.to_utf16().0;
            char::decode_utf16(units.iter().copied())
                .take(2)
                .map(|r| {
                    Value::String(match r {
                        Ok(c) => JsStr::new(c.to_string()),
                        Err(e) => JsStr::from_utf16(&[e.unpaired_surrogate()]),
                    })
                })
                .collect()
        }
        Value::Array(a) | Value::Set(a) => a.into_iter().take(2).collect(),
        Value::Map(m) => m.into_iter().take(2).map(|(k, v)| Value::Array(vec![k, v])).collect(),
        Value::Buffer(b) => b.iter().take(2).map(|&x| Value::Number(f64::from(x))).collect(),
        _ => return Err(Diag::bare("TypeError", ".for is not iterable".into())),
    };
    let mut items = items.into_iter();
    Ok((items.next().unwrap_or(Value::Undefined), items.next().unwrap_or(Value::Undefined)))
}

/// SameValueZero for primitives, identity (originating node) for objects.
fn same_value_zero(a: &Value, aid: Option<usize>, b: &Value, bid: Option<usize>) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) | (Value::Undefined, Value::Undefined) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => x == y || (x.is_nan() && y.is_nan()),
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Null | Value::Undefined | Value::Bool(_) | Value::Number(_) | Value::String(_), _)
        | (_, Value::Null | Value::Undefined | Value::Bool(_) | Value::Number(_) | Value::String(_)) => false,
        _ => aid.is_some() && aid == bid,
    }
}

/// JS `String(value)` / ToPropertyKey.
pub fn js_to_string(v: &Value) -> JsStr {
    match v {
        Value::Null => "null".into(),
        Value::Undefined => "undefined".into(),
        Value::Bool(b) => b.to_string().into(),
        Value::Number(x) => js_number_to_string(*x).into(),
        Value::String(s) => s.clone(),
        Value::Array(a) => {
            // `Array.prototype.join(",")`, an item array joined in turn (a stack of the arrays
            // being joined, not recursion): null (and undefined) items are empty
            let mut parts: Vec<JsStr> = Vec::new();
            let mut stack = vec![(a.iter(), false)];
            while let Some((items, started)) = stack.last_mut() {
                let Some(x) = items.next() else {
                    stack.pop();
                    continue;
                };
                if std::mem::replace(started, true) {
                    parts.push(",".into());
                }
                match x {
                    Value::Null | Value::Undefined => {}
                    Value::Array(inner) => stack.push((inner.iter(), false)),
                    x => parts.push(js_to_string(x)),
                }
            }
            if !parts.iter().any(JsStr::has_lone_surrogate) {
                return parts.iter().map(JsStr::as_str).collect::<String>().into();
            }
            // code units, so that lone surrogates stay (joined once: linear in the items)
            let mut units: Vec<u16> = Vec::new();
            for p in &parts {
                units.extend_from_slice(&p.to_utf16().0);
            }
            JsStr::from_utf16(&units)
        }
        Value::Object(_) => "[object Object]".into(),
        Value::Date(t) => date_to_string(*t).into(),
        Value::Buffer(b) => String::from_utf8_lossy(b).into_owned().into(),
        Value::Map(_) => "[object Map]".into(),
        Value::Set(_) => "[object Set]".into(),
        Value::Circular => JsStr::default(),
        Value::Symbol(d) => format!("Symbol({d})").into(),
    }
}

/// `String(scalar.value)`.
fn scalar_js_string(s: &Scalar) -> JsStr {
    match s {
        Scalar::Null => "null".into(),
        Scalar::Bool(b) => b.to_string().into(),
        Scalar::Number(x) => js_number_to_string(*x).into(),
        Scalar::Str(s) => s.clone(),
        Scalar::Date(t) => date_to_string(*t).into(),
        Scalar::Buffer(b) => String::from_utf8_lossy(b).into_owned().into(),
        Scalar::Merge => "Symbol(<<)".into(),
    }
}
