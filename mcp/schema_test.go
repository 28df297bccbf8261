package mcp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/internal/mcptest"
	"github.com/holon-actors/holon-actors/mcp"
)

func TestNormalizeSchema(t *testing.T) {
	cases := []struct {
		name, in  string
		want      []string // substrings of the output
		forbidden []string
	}{
		{"third-party", mcptest.ThirdPartySchema,
			[]string{`"anyOf":[{"type":"string"},{"properties":{"next"`, `"anything":{"description":"no type at all (any JSON value, as text)","type":"string"}`,
				`"mode":{"enum":["fast","slow"],"type":"string"}`, `"tags":{"items":{"type":"string"},"type":"array"}`,
				`"ref":{"description":"where to look","properties"`},
			[]string{`$ref`, `oneOf`, `definitions`, `$schema`}},
		{"missing root type", `{"properties":{"a":{"type":"integer"}}}`, []string{`"type":"object"`}, nil},
		{"not JSON", `nope`, []string{`{"type":"object","properties":{}}`}, nil},
		{"dangling ref", `{"type":"object","properties":{"x":{"$ref":"#/nowhere"}}}`, []string{`"x":{"description":"a JSON value, as text","type":"string"}`}, []string{"$ref"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := string(mcp.NormalizeSchema(json.RawMessage(c.in)))
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("NormalizeSchema = %s\nwant it to contain %s", out, w)
				}
			}
			for _, f := range c.forbidden {
				if strings.Contains(out, f) {
					t.Errorf("NormalizeSchema = %s\nstill has %s", out, f)
				}
			}
		})
	}
}
