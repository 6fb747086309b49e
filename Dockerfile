# The order service: compiled TypeScript on Node 20, run as the unprivileged `node` user.
FROM node:20-bookworm-slim AS build
# better-sqlite3 compiles from source when no prebuilt binary fits.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# Without the sources yet, npm ci's prepare leaves the admin app alone; it is built below.
RUN npm ci
COPY . .
RUN npm run build && npm run build:admin && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The administration app, where bootstrap/http-app.ts looks for it beside the compiled service.
COPY --from=build /app/admin/dist ./dist/admin/dist
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 3000
CMD ["node", "dist/bootstrap/main.js"]
