// Source of the "fast-xml-parser" module inside the isolate. Constructing a parser at a
// component's top level must work; parsing comes with the runtime.
export class XMLParser {
  constructor(options = {}) {
    this.options = options;
  }

  parse() {
    throw new Error("XMLParser.parse is not available during analysis");
  }
}

export default { XMLParser };
