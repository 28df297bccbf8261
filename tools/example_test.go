package tools_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/holon-actors/holon-actors/tools"
)

type weatherArgs struct {
	City string `json:"city" jsonschema:"the city to look up"`
	Days int    `json:"days,omitempty" jsonschema:"how many days ahead, default 1"`
}

// ExampleTyped builds a tool from an argument struct; a bad call becomes
// an invalid_tool_input failure naming the field.
func ExampleTyped() {
	weather := tools.Typed("GetWeather", "Get the forecast for a city.",
		func(_ context.Context, a weatherArgs) tools.Result {
			return tools.Success("GetWeather", "rain expected in "+a.City, map[string]any{"city": a.City, "rain": true})
		})
	fmt.Println(string(weather.Spec().Parameters))
	fmt.Println(weather.Call(context.Background(), json.RawMessage(`{"city":"Oslo"}`)).Receipt)
	var env tools.Envelope
	_ = json.Unmarshal(weather.Call(context.Background(), json.RawMessage(`{"city":7}`)).Envelope, &env)
	fmt.Println(env.Error.Kind, string(env.Error.Details))
	// Output:
	// {"type":"object","properties":{"city":{"type":"string","description":"the city to look up"},"days":{"type":"integer","description":"how many days ahead, default 1"}},"required":["city"],"additionalProperties":false}
	// rain expected in Oslo
	// invalid_tool_input {"field":"city","parse_error":"type: 7 has type \"integer\", want \"string\"","tool_name":"GetWeather"}
}
