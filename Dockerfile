# syntax=docker/dockerfile:1
# The service in one image; the command chooses the role: api (default), worker, sim, migrate, rotate-master-key.
# docs/operations.md shows it run by docker compose and by Kubernetes.
#
#   docker build -t verifactu-service .
#   docker build --secret id=extra_ca,src=corporate-ca.pem -t verifactu-service .
#
# extra_ca (optional): more CA certificates (PEM) for npm, when a proxy between the build and the npm registry
# re-signs TLS. BASE_IMAGE: any Debian-based image with Node.js 20 and npm on its PATH; the official one by default.
ARG BASE_IMAGE=node:20-bookworm-slim

# Every package.json and the lock file, on their own: the dependency layer below is rebuilt only when they change.
FROM ${BASE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN mkdir /manifests \
 && find . -name package.json -not -path '*/node_modules/*' -exec cp --parents {} /manifests \; \
 && cp package-lock.json /manifests/

# Compiles every workspace, then keeps what runs: production dependencies, each workspace's package.json, dist/
# and the folders beside src/ (migrations, schemas, assets), and the compiled scripts. No install script runs:
# every native module ships prebuilt in its package.
FROM ${BASE_IMAGE} AS build
WORKDIR /app
COPY --from=manifests /manifests/ ./
RUN --mount=type=secret,id=extra_ca \
    if [ -f /run/secrets/extra_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/extra_ca; fi \
 && npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
 && mkdir -p /out/scripts /out/docker \
 && cp -r package.json node_modules /out/ \
 && cp -r scripts/dist /out/scripts/ \
 && cp docker/entrypoint.sh /out/docker/ \
 && for workspace in apps/* packages/*; do \
      mkdir -p "/out/$workspace" && cp "$workspace/package.json" "/out/$workspace/"; \
      for entry in "$workspace"/*/; do \
        [ "$(basename "$entry")" = src ] || cp -r "$entry" "/out/$workspace/"; \
      done; \
    done \
 && find /out/apps /out/packages /out/scripts \( -name '*.d.ts' -o -name '.tsbuildinfo' \) -delete

FROM ${BASE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    WORKER_PORT=9464 \
    SIM_HOST=0.0.0.0 \
    SIM_PORT=8443
WORKDIR /app
COPY --from=build /out/ ./
# The only places the processes write: var/certs (CERT_DIR) and var/sim-certs (the simulator's generated certificates
# in docker-compose.yml; a new volume there takes this owner). The code itself stays root's, read-only to the service.
RUN mkdir -p var/certs var/sim-certs && chown -R 10001:10001 var
USER 10001:10001
EXPOSE 3000 3001 8443 9464
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 CMD ["node", "/app/scripts/dist/container-healthcheck.js"]
ENTRYPOINT ["/app/docker/entrypoint.sh"]
CMD ["api"]
