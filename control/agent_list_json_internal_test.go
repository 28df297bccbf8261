package control

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
)

// filledInfo is an AgentInfo with every field set, recursively, to values
// encoders might disagree on (HTML, a line separator and non-ASCII in
// strings, times with nanoseconds and an offset), and valid enums.
func filledInfo(t *testing.T, n int) agentstate.AgentInfo {
	var in agentstate.AgentInfo
	fill(t, reflect.ValueOf(&in).Elem(), n)
	in.Kind, in.Visibility, in.Ownership = messages.AgentNamed, messages.VisibilityPublic, messages.OwnershipSelfOwned
	in.Status = messages.StatusAwakeIdle
	return in
}

func fill(t *testing.T, v reflect.Value, n int) {
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2026, 11, 25, 0, 14, 3, 123456789+n, time.FixedZone("", 3600))))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(t, v.Field(i), n+i)
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fill(t, v.Index(0), n)
		fill(t, v.Index(1), n+1)
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for i := range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(t, k, n+i)
			fill(t, e, n+i)
			v.SetMapIndex(k, e)
		}
	case reflect.String:
		v.SetString(fmt.Sprintf("<a href=\"x\">&\u2028é\t%d", n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(-int64(n) - 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(n) + 1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(n) + 0.5)
	default:
		t.Fatalf("fill: no value for a %s", v.Type())
	}
}

// TestWriteListIsWriteJSON: the listing's answer is writeJSON's, byte for
// byte, with its length, for agents with every field set, without, and
// for no agents.
func TestWriteListIsWriteJSON(t *testing.T) {
	tests := []struct {
		name string
		list AgentList
	}{
		{"every field", AgentList{Agents: []agentstate.AgentInfo{{ID: "a"}, filledInfo(t, 1), filledInfo(t, 40)}}},
		{"no agents", AgentList{Agents: []agentstate.AgentInfo{}}},
		{"nil", AgentList{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, got := httptest.NewRecorder(), httptest.NewRecorder()
			writeJSON(want, http.StatusOK, tt.list)
			writeList(got, http.StatusOK, tt.list)
			if got.Code != want.Code || !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) {
				t.Fatalf("writeList = %d\n%s\nwant writeJSON's %d\n%s", got.Code, got.Body, want.Code, want.Body)
			}
			if h := got.Header(); h.Get("Content-Type") != "application/json" || h.Get("Content-Length") != strconv.Itoa(got.Body.Len()) {
				t.Errorf("writeList headers %v, want application/json and Content-Length %d", h, got.Body.Len())
			}
		})
	}
}

// TestDecodeListIsEncodingJSON: the client decodes a listing as
// encoding/json does, whether the answer says its length or not, into a
// slice with room for exactly its agents.
func TestDecodeListIsEncodingJSON(t *testing.T) {
	tests := []struct {
		name string
		list AgentList
	}{
		{"every field", AgentList{Agents: []agentstate.AgentInfo{{ID: "a", Status: messages.StatusAsleep}, filledInfo(t, 1), filledInfo(t, 40)}}},
		{"no agents", AgentList{Agents: []agentstate.AgentInfo{}}},
		{"nil", AgentList{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			writeList(rec, http.StatusOK, tt.list)
			body := rec.Body.Bytes()
			var want AgentList
			if err := json.Unmarshal(body, &want); err != nil {
				t.Fatal(err)
			}
			for _, length := range []int64{int64(len(body)), -1} {
				var got AgentList
				resp := &http.Response{Body: io.NopCloser(bytes.NewReader(body)), ContentLength: length}
				if err := decodeList(resp, &got); err != nil || !reflect.DeepEqual(got, want) {
					t.Fatalf("decodeList(length %d) = %+v, %v\nwant encoding/json's %+v", length, got, err, want)
				}
				if cap(got.Agents) != len(got.Agents) {
					t.Errorf("decodeList(length %d): %d agents in room for %d, want room for exactly them", length, len(got.Agents), cap(got.Agents))
				}
			}
			var got AgentList
			resp := &http.Response{Body: io.NopCloser(bytes.NewReader(body[:len(body)/2])), ContentLength: int64(len(body))}
			if err := decodeList(resp, &got); err == nil {
				t.Fatal("decodeList of half an answer: no error")
			}
		})
	}
}
