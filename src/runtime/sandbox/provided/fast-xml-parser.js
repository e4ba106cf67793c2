// Source of the "fast-xml-parser" module inside the isolate: a compact XMLParser producing the
// same shapes as the real library (v4) for the options feeds use: elements, attributes
// (ignoreAttributes, attributeNamePrefix, attributesGroupName), text (#text when mixed), repeated
// elements as arrays, CDATA, entities, value parsing. Comments, doctypes and processing
// instructions are skipped.
const DEFAULTS = {
  ignoreAttributes: true,
  attributeNamePrefix: "@_",
  attributesGroupName: false,
  textNodeName: "#text",
  parseTagValue: true,
  parseAttributeValue: false,
  trimValues: true,
  cdataPropName: false,
  alwaysCreateTextNode: false,
  removeNSPrefix: false,
  allowBooleanAttributes: false,
  processEntities: true,
  htmlEntities: false,
  isArray: () => false,
  tagValueProcessor: (_name, value) => value,
  attributeValueProcessor: (_name, value) => value,
};

const XML_ENTITIES = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
const HTML_ENTITIES = { nbsp: "\u00a0", copy: "\u00a9", reg: "\u00ae", hellip: "\u2026", mdash: "\u2014", ndash: "\u2013", lsquo: "\u2018", rsquo: "\u2019", ldquo: "\u201c", rdquo: "\u201d" };
const NAME = /[^\s/>=]+/y;
const ATTR = /\s*([^\s/>=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/y;

function decodeEntities(s, options) {
  if (!options.processEntities || !s.includes("&")) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|[A-Za-z]+);/g, (m, e) => {
    if (e[0] === "#") {
      const cp = e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    }
    return XML_ENTITIES[e] ?? (options.htmlEntities ? HTML_ENTITIES[e] : undefined) ?? m;
  });
}

function parseValue(s, enabled) {
  if (!enabled || typeof s !== "string") return s;
  const t = s.trim();
  if (t === "true") return true;
  if (t === "false") return false;
  if (/^0x[0-9a-fA-F]+$/.test(t)) return parseInt(t, 16);
  if (!/^[-+]?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$/.test(t)) return s;
  const n = Number(t);
  // Only lossless conversions: long ids and version-like strings stay strings.
  if (!Number.isFinite(n)) return s;
  if (/^[-+]?\d+$/.test(t) && !Number.isSafeInteger(n)) return s;
  return n;
}

function stripNs(name, options) {
  if (!options.removeNSPrefix) return name;
  const i = name.indexOf(":");
  return i < 0 ? name : name.startsWith("xmlns") ? null : name.slice(i + 1);
}

class Node {
  constructor(name, attrs, path) {
    this.name = name;
    this.attrs = attrs;
    this.path = path;
    this.children = [];
    this.text = "";
  }
}

// Defines rather than assigns, so that an element named __proto__ is just a key.
function put(obj, key, value) {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

function addChild(obj, name, value, path, isLeaf, options) {
  // Values are never arrays themselves, so an array here is always a group of repeated elements.
  if (Object.hasOwn(obj, name)) {
    if (!Array.isArray(obj[name])) put(obj, name, [obj[name]]);
    obj[name].push(value);
  } else {
    put(obj, name, options.isArray(name, path, isLeaf, false) ? [value] : value);
  }
}

function finish(node, options) {
  const text = options.trimValues ? node.text.trim() : node.text;
  const hasAttrs = node.attrs && Object.keys(node.attrs).length > 0;
  const value = text === "" ? "" : parseValue(options.tagValueProcessor(node.name, text, node.path, false, false) ?? text, options.parseTagValue);
  if (node.children.length === 0 && !hasAttrs && !options.alwaysCreateTextNode) return value;
  const obj = {};
  if (hasAttrs) {
    if (options.attributesGroupName) put(obj, options.attributesGroupName, node.attrs);
    else Object.assign(obj, node.attrs);
  }
  for (const [name, child, isLeaf] of node.children) addChild(obj, name, child, `${node.path}.${name}`, isLeaf, options);
  if (text !== "" || (options.alwaysCreateTextNode && node.children.length === 0)) put(obj, options.textNodeName, value);
  return obj;
}

function readAttributes(src, from, options, tagName) {
  const attrs = {};
  let i = from;
  for (;;) {
    ATTR.lastIndex = i;
    const m = ATTR.exec(src);
    if (!m) break;
    i = ATTR.lastIndex;
    if (options.ignoreAttributes) continue;
    const name = stripNs(m[1], options);
    if (name === null) continue;
    const raw = m[2] ?? m[3] ?? m[4];
    if (raw === undefined && !options.allowBooleanAttributes) continue;
    let value = raw === undefined ? true : decodeEntities(raw, options);
    if (typeof value === "string") {
      value = options.attributeValueProcessor(name, value, tagName) ?? value;
      value = parseValue(value, options.parseAttributeValue);
    }
    put(attrs, options.attributeNamePrefix + name, value);
  }
  return { attrs, end: i };
}

function parse(src, options) {
  const root = new Node("!root", null, "");
  const stack = [root];
  let i = 0;
  const top = () => stack[stack.length - 1];
  const expect = (s, from) => {
    const j = src.indexOf(s, from);
    if (j < 0) throw new Error(`XML: unclosed ${s === "-->" ? "comment" : s === "]]>" ? "CDATA section" : "markup"} at ${from}`);
    return j;
  };
  while (i < src.length) {
    const lt = src.indexOf("<", i);
    if (lt < 0) {
      top().text += decodeEntities(src.slice(i), options);
      break;
    }
    if (lt > i) top().text += decodeEntities(src.slice(i, lt), options);
    if (src.startsWith("<!--", lt)) {
      i = expect("-->", lt + 4) + 3;
    } else if (src.startsWith("<![CDATA[", lt)) {
      const end = expect("]]>", lt + 9);
      const data = src.slice(lt + 9, end);
      if (options.cdataPropName) top().children.push([options.cdataPropName, data, true]);
      else top().text += data;
      i = end + 3;
    } else if (src.startsWith("<?", lt)) {
      i = expect("?>", lt + 2) + 2;
    } else if (src.startsWith("<!", lt)) {
      // DOCTYPE, possibly with an internal subset in brackets.
      let j = lt + 2;
      let depth = 0;
      for (; j < src.length; j++) {
        if (src[j] === "[") depth++;
        else if (src[j] === "]") depth--;
        else if (src[j] === ">" && depth <= 0) break;
      }
      i = j + 1;
    } else if (src[lt + 1] === "/") {
      const end = expect(">", lt + 2);
      const name = stripNs(src.slice(lt + 2, end).trim(), options) ?? "";
      const node = stack.pop();
      if (!node || node === root || node.name !== name) throw new Error(`XML: unexpected closing tag </${name}> at ${lt}`);
      const value = finish(node, options);
      top().children.push([node.name, value, node.children.length === 0]);
      i = end + 1;
    } else {
      NAME.lastIndex = lt + 1;
      const m = NAME.exec(src);
      if (!m) throw new Error(`XML: malformed tag at ${lt}`);
      const rawName = m[0];
      const { attrs, end } = readAttributes(src, NAME.lastIndex, options, rawName);
      const close = src.indexOf(">", end);
      if (close < 0) throw new Error(`XML: unclosed tag <${rawName}> at ${lt}`);
      const name = stripNs(rawName, options) ?? rawName;
      const node = new Node(name, attrs, top() === root ? name : `${top().path}.${name}`);
      if (src[close - 1] === "/") {
        top().children.push([name, finish(node, options), true]);
      } else {
        stack.push(node);
      }
      i = close + 1;
    }
  }
  while (stack.length > 1) {
    const node = stack.pop();
    top().children.push([node.name, finish(node, options), node.children.length === 0]);
  }
  const doc = {};
  for (const [name, value, isLeaf] of root.children) addChild(doc, name, value, name, isLeaf, options);
  return doc;
}

export class XMLParser {
  constructor(options = {}) {
    this.options = { ...DEFAULTS, ...options };
  }

  parse(xml) {
    const src = typeof xml === "string" ? xml : xml && typeof xml.toString === "function" ? xml.toString() : "";
    return parse(src, this.options);
  }
}

export const XMLValidator = {
  validate(xml) {
    try {
      parse(String(xml), DEFAULTS);
      return true;
    } catch (e) {
      return { err: { code: "InvalidXml", msg: e.message } };
    }
  },
};

export default { XMLParser, XMLValidator };
