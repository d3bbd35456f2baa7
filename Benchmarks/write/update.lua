-- wrk: one single-row update a request, of a row among the first 10,000; PREFIX (the table's
-- path) and TOKEN from the environment: PREFIX/{id}/-/update.
local prefix = os.getenv("PREFIX")
local counter = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")

request = function()
    counter = counter + 1
    local id = math.random(1, 10000)
    return wrk.format(nil, prefix .. "/" .. id .. "/-/update", nil, '{"update": {"n": ' .. counter .. '}}')
end
