// Package apidoc generates the control API's OpenAPI document from the
// route table of package control: every route's operation id, parameters,
// request and response schemas (by reflection on the Go types the
// handlers decode and encode), error responses and examples.
//
// The document is OpenAPI 3.0.3, the version client generators read; it
// is written to control/openapi.json by the control tests' -update, and
// the same tests fail when the committed document differs from what Build
// makes of the routes.
//
// apidoc imports control; control does not import it, so the runtime's
// binary carries the document but not its generator.
package apidoc
