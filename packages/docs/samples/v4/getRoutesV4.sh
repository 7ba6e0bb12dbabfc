# GATEWAY_URL is the base address of the API, the same for every version.
curl -sS --fail-with-body "$GATEWAY_URL/v4/get-routes"
