module github.com/heraldbot/herald

go 1.26.8

require (
	github.com/go-resty/resty/v2 v2.17.2
	github.com/mattn/go-sqlite3 v1.14.53
	github.com/yuin/goldmark v1.8.7
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/net v0.62.0
	golang.org/x/term v0.48.0
	golang.org/x/time v0.16.0
	mvdan.cc/sh/v3 v3.14.1
)

require golang.org/x/sys v0.50.0 // indirect
