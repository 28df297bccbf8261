package agentstate

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/holon-actors/holon-actors/messages"
)

// A timer's schedule: when a created timer (messages.TimerRecord) fires.
//
// A cron timer's expression is read on the wall clock of its zone, and the
// daylight-saving rule is:
//   - a wall time that does not exist (the hour skipped when clocks go
//     forward) fires at the first instant after the gap, once: 02:30
//     Europe/Paris on the last Sunday of March fires at 03:00 CEST, and an
//     every-minute expression fires once at 03:00 for the whole gap;
//   - a wall time that exists twice (the hour repeated when clocks go
//     back) fires once, at its first occurrence.
//
// So a local-time fire is neither skipped nor doubled.

// cronSchedule parses a five-field cron expression (minute hour day month
// weekday, or a descriptor such as @daily). Its zone is the timer's own
// field, so a TZ= prefix and @every (which is the every field) are refused.
func cronSchedule(expr string) (cron.Schedule, error) {
	e := strings.TrimSpace(expr)
	if strings.HasPrefix(e, "TZ=") || strings.HasPrefix(e, "CRON_TZ=") {
		return nil, fmt.Errorf("cron %q: give the time zone in zone, not in the expression", expr)
	}
	if strings.HasPrefix(e, "@every") {
		return nil, fmt.Errorf("cron %q: use every for a fixed interval", expr)
	}
	if s, ok := schedules.Load(e); ok {
		return s.(cron.Schedule), nil
	}
	s, err := cron.ParseStandard(e)
	if err != nil {
		return nil, fmt.Errorf("cron %q: %v (five fields: minute hour day-of-month month day-of-week, e.g. \"0 9 * * 1-5\")", expr, err)
	}
	if cachedSchedules.Load() < maxCachedSchedules { // bounded: a model may try many expressions
		if _, loaded := schedules.LoadOrStore(e, s); !loaded {
			cachedSchedules.Add(1)
		}
	}
	return s, nil
}

// zones and schedules hold the zones loaded and the cron expressions
// parsed so far (both immutable once made): a fire after a long downtime
// steps a cron timer through every missed run, and loading the zone's
// data for each run took ~20µs, 1.5 s of the agent's actor for a minutely
// timer down for 100 days.
var zones, schedules sync.Map

// cachedSchedules counts the expressions in schedules, at most
// maxCachedSchedules (zones is bounded by the zone database).
var cachedSchedules atomic.Int64

const maxCachedSchedules = 4096

// loadZone loads an IANA time zone by name.
func loadZone(name string) (*time.Location, error) {
	if name == "" {
		return nil, fmt.Errorf("a cron timer needs zone, an IANA time zone such as Europe/Paris or UTC")
	}
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("zone %q is not an IANA time zone (e.g. Europe/Paris, America/New_York, UTC)", name)
	}
	zones.Store(name, loc)
	return loc, nil
}

// wall is t's wall clock in loc, as a UTC time with the same fields.
func wall(t time.Time, loc *time.Location) time.Time {
	l := t.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), l.Nanosecond(), time.UTC)
}

// instant is the instant wall time w (fields in UTC) names in loc by the
// rule above: its first occurrence, or the end of the gap it falls in.
func instant(w time.Time, loc *time.Location) time.Time {
	var first time.Time
	for _, probe := range []time.Duration{-36 * time.Hour, 36 * time.Hour} {
		_, off := w.Add(probe).In(loc).Zone()
		t := w.Add(-time.Duration(off) * time.Second)
		if wall(t, loc).Equal(w) && (first.IsZero() || t.Before(first)) {
			first = t
		}
	}
	if !first.IsZero() {
		return first
	}
	// In a gap: between lo (wall before w) and hi (wall after w) lies the
	// transition; find its first second whose wall time is past w.
	lo, hi := w.Add(-36*time.Hour), w.Add(36*time.Hour)
	for _, probe := range []time.Duration{-36 * time.Hour, 36 * time.Hour} {
		_, off := w.Add(probe).In(loc).Zone()
		t := w.Add(-time.Duration(off) * time.Second)
		if wall(t, loc).Before(w) && t.After(lo) {
			lo = t
		}
		if wall(t, loc).After(w) && t.Before(hi) {
			hi = t
		}
	}
	for hi.Sub(lo) > time.Second {
		mid := lo.Add(hi.Sub(lo) / 2).Truncate(time.Second)
		if wall(mid, loc).After(w) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// cronNext is the first fire of s in loc strictly after instant after.
func cronNext(s cron.Schedule, loc *time.Location, after time.Time) time.Time {
	w := wall(after, loc)
	for range 1000 { // each step moves w forward; a gap collapses a few
		w = s.Next(w)
		if w.IsZero() {
			return time.Time{}
		}
		if t := instant(w, loc); t.After(after) {
			return t
		}
	}
	return time.Time{}
}

// nextRun is the first fire of rec strictly after instant after, or false
// when it has none (a one-shot's only fire is At; past Until).
func nextRun(rec messages.TimerRecord, after time.Time) (time.Time, bool) {
	var t time.Time
	switch {
	case rec.Cron != "":
		s, err := cronSchedule(rec.Cron)
		if err != nil {
			return time.Time{}, false
		}
		loc, err := loadZone(rec.Zone)
		if err != nil {
			return time.Time{}, false
		}
		t = cronNext(s, loc, after)
	case rec.EveryMS > 0:
		every := time.Duration(rec.EveryMS) * time.Millisecond
		anchor := rec.Start
		if rec.At != nil {
			anchor = rec.At.Add(-every)
		}
		k := int64(1)
		if after.After(anchor) {
			k = int64(after.Sub(anchor)/every) + 1
		}
		t = anchor.Add(time.Duration(k) * every)
	case rec.At != nil:
		if !rec.At.After(after) {
			return time.Time{}, false
		}
		t = *rec.At
	}
	if t.IsZero() || (rec.Until != nil && t.After(*rec.Until)) {
		return time.Time{}, false
	}
	return t.UTC(), true
}
