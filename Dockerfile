# Herald's image: one image for every part. `serve` (the default) runs the API and the built web app,
# `work` the job worker and broadcast engine, `migrate` the migrations and grants (docs/production.md).
#   docker build -t herald .
#   docker run --rm -e DATABASE_URL=… -e JWT_SECRET=… -e ENCRYPTION_KEY=… -p 3000:3000 herald         # serve
#   docker run --rm -e DATABASE_URL=… -e ENCRYPTION_KEY=… herald work
# Node 24 is an LTS with security fixes until April 2028 (Node 20 reached its end of life in April 2026).

FROM node:24-bookworm-slim AS build
WORKDIR /app
# The manifests first, so a change of source code reuses the installed dependencies' layer.
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contracts/package.json packages/contracts/
COPY packages/cloud-sim/package.json packages/cloud-sim/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build --workspace @herald/web

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    WORKER_PORT=3001
WORKDIR /app
# The server runs its TypeScript through tsx (a dependency kept in the image), as `npm run herald` does.
COPY --from=build --chown=node:node /app /app
# The sandbox's call log and state, when the image runs it (docker-compose.yml), go to a volume mounted here.
RUN mkdir -p /app/data/sandbox && chown -R node:node /app/data
USER node
EXPOSE 3000 3001
ENTRYPOINT ["node", "--import", "tsx", "apps/server/src/cli.ts"]
CMD ["serve"]
