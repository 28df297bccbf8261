package main

// The time-zone database is built in, so a timer's IANA zone (cron in
// Europe/Paris) resolves the same on a host without /usr/share/zoneinfo,
// such as a minimal container.
import _ "time/tzdata"
