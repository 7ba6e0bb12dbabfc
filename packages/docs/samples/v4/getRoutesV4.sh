# GATEWAY_URL is the base address of the API, the same for every version.
GATEWAY_URL="${GATEWAY_URL:-http://127.0.0.1:8080}"  # the local sandbox (pnpm server) unless set
curl -sS --fail-with-body \
  ${GATEWAY_API_KEY:+-H "Authorization: Bearer $GATEWAY_API_KEY"} \
  "$GATEWAY_URL/v4/get-routes"
