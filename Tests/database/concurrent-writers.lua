-- wrk, one connection a thread (-tN -cN): each thread in turn inserts a row of a name of its own,
-- reads the shared counter's row and its ETag, and adds one to it with If-Match (read again
-- after a 412, until it takes). Each acknowledged insert's name and each acknowledged increment
-- is written to LOG-<thread>.log as it is acknowledged; anything else is logged as an error.
-- When wrk stops, a thread's last request may have been done without its answer being read: an
-- insert or increment the server made but no log holds, at most one a thread.
-- TOKEN (a bearer token), SERVER (a name for the server, in the rows' names) and LOG (a path
-- prefix) from the environment.
local next_id = 0

function setup(thread)
    next_id = next_id + 1
    thread:set("id", next_id)
end

local state, name, seq, n, etag, log = "insert", nil, 0, 0, nil, nil
local auth = { ["Authorization"] = "Bearer " .. os.getenv("TOKEN"), ["Content-Type"] = "application/json" }

function init(args)
    log = assert(io.open(os.getenv("LOG") .. "-" .. id .. ".log", "a"))
end

local function write(line)
    log:write(line, "\n")
    log:flush()
end

function request()
    if state == "insert" then
        seq = seq + 1
        name = "wrk-" .. os.getenv("SERVER") .. "-" .. id .. "-" .. seq
        return wrk.format("POST", "/items/-/insert", auth, '{"row": {"name": "' .. name .. '", "n": ' .. seq .. '}}')
    elseif state == "read" then
        return wrk.format("GET", "/counters/shared.json", auth)
    else
        local headers = { ["If-Match"] = etag }
        for k, v in pairs(auth) do headers[k] = v end
        return wrk.format("POST", "/counters/shared/-/update", headers, '{"update": {"n": ' .. (n + 1) .. '}}')
    end
end

function response(status, headers, body)
    if state == "insert" then
        if status == 201 then write("insert " .. name) else write("error insert " .. status .. " " .. body) end
        state = "read"
    elseif state == "read" then
        etag = headers["ETag"] or headers["Etag"] or headers["etag"]
        local value = body:match('"n":(%-?%d+)')
        if status == 200 and etag and value then
            n = tonumber(value)
            state = "update"
        else
            write("error read " .. status .. " " .. body)
        end
    else
        if status == 200 then
            write("increment")
            state = "insert"
        elseif status == 412 then
            write("refused")
            state = "read"
        else
            write("error update " .. status .. " " .. body)
            state = "read"
        end
    end
end
