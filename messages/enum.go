package messages

import (
	"fmt"
	"strings"
)

// enum describes one closed set of typed string values: its human name (used
// in errors), its values in spec order, and legacy aliases accepted on input.
type enum[T ~string] struct {
	name    string
	values  []T
	aliases map[string]T
}

func (e enum[T]) valid(v T) bool {
	for _, w := range e.values {
		if v == w {
			return true
		}
	}
	return false
}

func (e enum[T]) parse(s string) (T, error) {
	if v := T(s); e.valid(v) {
		return v, nil
	}
	if v, ok := e.aliases[s]; ok {
		return v, nil
	}
	return "", fmt.Errorf("%w: %s %q (want one of %s)", ErrUnknownValue, e.name, s, e.allowed())
}

// unmarshal parses text into *dst, leaving *dst untouched on error.
func (e enum[T]) unmarshal(dst *T, text []byte) error {
	v, err := e.parse(string(text))
	if err != nil {
		return err
	}
	*dst = v
	return nil
}

func (e enum[T]) allowed() string {
	s := make([]string, len(e.values))
	for i, v := range e.values {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}
