package messages

// field is one optional member of a tagged union, by JSON key.
type field struct {
	key string
	set bool
}

// shape lists which members of a tagged union (Origin, Body) one variant
// requires and which it merely allows; every other member must be unset.
type shape struct {
	required []string
	optional []string
}

// check returns a FieldError under kind for the first field, in order, that
// is set but not allowed or required but unset. Paths read prefix.key.
func (s shape) check(kind error, prefix, variant string, fields []field) error {
	for _, f := range fields {
		req, opt := contains(s.required, f.key), contains(s.optional, f.key)
		switch {
		case f.set && !req && !opt:
			return fieldError(kind, prefix+"."+f.key, "is not allowed for "+variant)
		case !f.set && req:
			return fieldError(kind, prefix+"."+f.key, "is required for "+variant)
		}
	}
	return nil
}

// keys returns every key the variant may carry, required first.
func (s shape) keys() []string {
	return append(append([]string(nil), s.required...), s.optional...)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
