-- wrk script for Tests/reliability/soak.sh: a round-robin mix of list pages, fragments, JSON
-- and static files. Every answer should be 200; wrk counts 4xx/5xx as "Non-2xx or 3xx responses".
local requests = {}
local function add(path, headers) table.insert(requests, { path = path, headers = headers }) end
add("/people")
add("/people?offset=%d&fragment=rows")
add("/people.json")
add("/people", { ["Accept"] = "application/json" })
add("/people", { ["HX-Request"] = "true" })
add("/settings")
add("/catalog")
add("/static/app.css")
add("/static/app.js")
add("/listbench?limit=100")

local counter = 0

function init(args)
    -- Each wrk thread starts at a different place in the mix.
    counter = math.random(0, #requests * 200)
end

function request()
    counter = counter + 1
    local entry = requests[counter % #requests + 1]
    local path = entry.path
    if path:find("%%d") then
        path = string.format(path, (counter % 200) * 50)
    end
    return wrk.format("GET", path, entry.headers)
end
