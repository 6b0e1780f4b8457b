"""A JSON Schema (draft-04) validator in the standard library, for the
schemas the suite checks its own outputs against (tests/test_sarif.py).

Supported: $ref (to #/definitions/... of the same document), type, enum,
properties, additionalProperties, patternProperties, required, items,
minItems, maxItems, uniqueItems, minimum, maximum, minLength, pattern,
format (uri, uri-reference, date-time), allOf, anyOf, oneOf, not and
dependencies. Unknown keywords are an error, so a schema never passes
because a rule was silently not understood."""
import re

ANNOTATIONS = {"$schema", "id", "title", "description", "default", "definitions", "deprecated"}
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}
URI_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$")
URI_REF_RE = re.compile(r"^[^\s]*$")
DATE_TIME_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")


def is_type(value, name):
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, TYPES[name])


class Validator:
    def __init__(self, root):
        self.root = root

    def errors(self, value):
        """Every violation, as "path: what" strings (empty: valid)."""
        out = []
        self.check(value, self.root, "$", out)
        return out

    def resolve(self, ref):
        if not ref.startswith("#/"):
            raise ValueError("only local references are supported: " + ref)
        node = self.root
        for part in ref[2:].split("/"):
            node = node[part]
        return node

    def check(self, value, schema, path, out):
        for key in schema:
            if key not in ANNOTATIONS and not hasattr(self, "kw_" + key.lstrip("$")):
                raise ValueError("%s: unsupported schema keyword %r" % (path, key))
        if "$ref" in schema:
            self.check(value, self.resolve(schema["$ref"]), path, out)
            return
        for key, arg in schema.items():
            if key not in ANNOTATIONS:
                getattr(self, "kw_" + key)(value, arg, schema, path, out)

    def ok(self, value, schema, path):
        out = []
        self.check(value, schema, path, out)
        return not out

    def kw_type(self, value, arg, _s, path, out):
        names = arg if isinstance(arg, list) else [arg]
        if not any(is_type(value, n) for n in names):
            out.append("%s: %r is not of type %s" % (path, value, "/".join(names)))

    def kw_enum(self, value, arg, _s, path, out):
        if value not in arg:
            out.append("%s: %r is not one of %s" % (path, value, arg))

    def kw_properties(self, value, arg, _s, path, out):
        if isinstance(value, dict):
            for name, sub in arg.items():
                if name in value:
                    self.check(value[name], sub, "%s.%s" % (path, name), out)

    def kw_patternProperties(self, value, arg, _s, path, out):
        if isinstance(value, dict):
            for pat, sub in arg.items():
                for name in value:
                    if re.search(pat, name):
                        self.check(value[name], sub, "%s.%s" % (path, name), out)

    def kw_additionalProperties(self, value, arg, schema, path, out):
        if not isinstance(value, dict):
            return
        known = set(schema.get("properties", {}))
        pats = list(schema.get("patternProperties", {}))
        for name in value:
            if name in known or any(re.search(p, name) for p in pats):
                continue
            if arg is False:
                out.append("%s: property %r is not allowed" % (path, name))
            elif isinstance(arg, dict):
                self.check(value[name], arg, "%s.%s" % (path, name), out)

    def kw_required(self, value, arg, _s, path, out):
        if isinstance(value, dict):
            out += ["%s: %r is required" % (path, n) for n in arg if n not in value]

    def kw_items(self, value, arg, _s, path, out):
        if isinstance(value, list):
            for i, v in enumerate(value):
                self.check(v, arg, "%s[%d]" % (path, i), out)

    def kw_minItems(self, value, arg, _s, path, out):
        if isinstance(value, list) and len(value) < arg:
            out.append("%s: fewer than %d items" % (path, arg))

    def kw_maxItems(self, value, arg, _s, path, out):
        if isinstance(value, list) and len(value) > arg:
            out.append("%s: more than %d items" % (path, arg))

    def kw_uniqueItems(self, value, arg, _s, path, out):
        if arg and isinstance(value, list):
            seen = [repr(sorted(v.items()) if isinstance(v, dict) else v) for v in value]
            if len(set(seen)) != len(seen):
                out.append("%s: items are not unique" % path)

    def kw_minimum(self, value, arg, _s, path, out):
        if is_type(value, "number") and value < arg:
            out.append("%s: %r is below the minimum %r" % (path, value, arg))

    def kw_maximum(self, value, arg, _s, path, out):
        if is_type(value, "number") and value > arg:
            out.append("%s: %r is above the maximum %r" % (path, value, arg))

    def kw_minLength(self, value, arg, _s, path, out):
        if isinstance(value, str) and len(value) < arg:
            out.append("%s: shorter than %d" % (path, arg))

    def kw_pattern(self, value, arg, _s, path, out):
        if isinstance(value, str) and not re.search(arg, value):
            out.append("%s: %r does not match %r" % (path, value, arg))

    def kw_format(self, value, arg, _s, path, out):
        pat = {"uri": URI_RE, "uri-reference": URI_REF_RE, "date-time": DATE_TIME_RE}.get(arg)
        if pat is None:
            raise ValueError("%s: unsupported format %r" % (path, arg))
        if isinstance(value, str) and not pat.match(value):
            out.append("%s: %r is not a %s" % (path, value, arg))

    def kw_allOf(self, value, arg, _s, path, out):
        for sub in arg:
            self.check(value, sub, path, out)

    def kw_anyOf(self, value, arg, _s, path, out):
        if not any(self.ok(value, sub, path) for sub in arg):
            out.append("%s: matches none of anyOf" % path)

    def kw_oneOf(self, value, arg, _s, path, out):
        n = sum(self.ok(value, sub, path) for sub in arg)
        if n != 1:
            out.append("%s: matches %d of oneOf (exactly 1 needed)" % (path, n))

    def kw_not(self, value, arg, _s, path, out):
        if self.ok(value, arg, path):
            out.append("%s: matches a schema it must not" % path)

    def kw_dependencies(self, value, arg, _s, path, out):
        if not isinstance(value, dict):
            return
        for name, dep in arg.items():
            if name not in value:
                continue
            if isinstance(dep, list):
                out += ["%s: %r needs %r" % (path, name, d) for d in dep if d not in value]
            else:
                self.check(value, dep, path, out)

    kw_ref = None      # handled in check()


def validate(value, schema):
    return Validator(schema).errors(value)
