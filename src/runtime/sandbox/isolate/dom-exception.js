// Runs INSIDE the isolate: DOMException, which Node has as a global and V8 alone doesn't.
// googleapis and gaxios build one on their stream and abort paths, node-domexception hands the
// global on, and code tells an abort apart by `e.name === "AbortError"` or `e.code === 20`. Shaped
// as Node's: name, message and code are getters on the prototype, the legacy constants are on
// both the class and its prototype, and instances are Errors (with a stack) whose
// Object.prototype.toString tag is DOMException.

// the legacy error codes, in their numeric order (a name's code is its index + 1)
const LEGACY_CONSTANTS = [
  "INDEX_SIZE_ERR", "DOMSTRING_SIZE_ERR", "HIERARCHY_REQUEST_ERR", "WRONG_DOCUMENT_ERR", "INVALID_CHARACTER_ERR",
  "NO_DATA_ALLOWED_ERR", "NO_MODIFICATION_ALLOWED_ERR", "NOT_FOUND_ERR", "NOT_SUPPORTED_ERR", "INUSE_ATTRIBUTE_ERR",
  "INVALID_STATE_ERR", "SYNTAX_ERR", "INVALID_MODIFICATION_ERR", "NAMESPACE_ERR", "INVALID_ACCESS_ERR", "VALIDATION_ERR",
  "TYPE_MISMATCH_ERR", "SECURITY_ERR", "NETWORK_ERR", "ABORT_ERR", "URL_MISMATCH_ERR", "QUOTA_EXCEEDED_ERR",
  "TIMEOUT_ERR", "INVALID_NODE_TYPE_ERR", "DATA_CLONE_ERR",
];
// the names that have a legacy code; every other name's code is 0
const CODE_OF_NAME = {
  IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5, NoModificationAllowedError: 7,
  NotFoundError: 8, NotSupportedError: 9, InUseAttributeError: 10, InvalidStateError: 11, SyntaxError: 12,
  InvalidModificationError: 13, NamespaceError: 14, InvalidAccessError: 15, TypeMismatchError: 17, SecurityError: 18,
  NetworkError: 19, AbortError: 20, URLMismatchError: 21, QuotaExceededError: 22, TimeoutError: 23, InvalidNodeTypeError: 24,
  DataCloneError: 25,
};

const { defineProperty, setPrototypeOf, hasOwn } = Object;
let DOMExceptionClass;

/** The class, made the first time code names it (a context that never does pays nothing). */
export function domExceptionClass() {
  if (DOMExceptionClass) return DOMExceptionClass;
  let check;
  class DOMException {
    #name;
    #message;

    constructor(message = "", options = "Error") {
      this.#message = `${message}`;
      if (options !== null && typeof options === "object") {
        this.#name = "name" in options ? `${options.name}` : "Error";
        if ("cause" in options) defineProperty(this, "cause", { value: options.cause, writable: true, enumerable: false, configurable: true });
      } else {
        this.#name = `${options}`;
      }
      Error.captureStackTrace(this, DOMException);
    }

    get name() {
      return check(this).#name;
    }

    get message() {
      return check(this).#message;
    }

    get code() {
      const name = check(this).#name;
      return hasOwn(CODE_OF_NAME, name) ? CODE_OF_NAME[name] : 0;
    }

    static {
      // `this` is checked the way Node checks it: a getter read off a non-DOMException throws
      check = (self) => {
        if (self === null || typeof self !== "object" || !(#name in self)) throw new TypeError('Value of "this" must be of DOMException');
        return self;
      };
    }
  }
  setPrototypeOf(DOMException.prototype, Error.prototype);
  for (const key of ["name", "message", "code"]) {
    defineProperty(DOMException.prototype, key, { enumerable: true });
  }
  LEGACY_CONSTANTS.forEach((key, i) => {
    const constant = { value: i + 1, writable: false, enumerable: true, configurable: false };
    defineProperty(DOMException, key, constant);
    defineProperty(DOMException.prototype, key, constant);
  });
  defineProperty(DOMException.prototype, Symbol.toStringTag, { value: "DOMException", configurable: true });
  DOMExceptionClass = DOMException;
  return DOMException;
}

/** A DOMException named `name`: what the sandbox's own aborts, timeouts and clones throw. */
export function domException(message, name) {
  const DOMException = domExceptionClass();
  return new DOMException(message, name);
}
