-- wrk: one single-row insert a request through a write API; TOKEN and TARGET from the environment.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
wrk.body = '{"row": {"name": "a bottle", "n": 1}}'
wrk.path = os.getenv("TARGET")
