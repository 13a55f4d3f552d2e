# One image for both process roles; docker-compose.yml picks the command.
# Node 24, the maintained LTS line (20 is past its end of life); the native packages (argon2,
# sharp) ship Node-API prebuilds, so they need no rebuild across Node versions.

# Compiles the application (tsconfig.image.json: apps, libs and migrations; no benches, no tests).
# --ignore-scripts: compiling needs no install script, and it skips the devDependency `node`'s
# download of a second Node 24 (50 MB) the image already has. tsc runs through the image's node:
# node_modules/.bin/node is that package's shim, left uninstalled here.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
COPY tsconfig.json tsconfig.build.json tsconfig.image.json nest-cli.json ./
COPY apps ./apps
COPY libs ./libs
COPY migrations ./migrations
RUN node node_modules/typescript/bin/tsc -p tsconfig.image.json

# The production dependencies alone, exactly as package-lock.json has them; the install scripts
# package.json's allowScripts approves run here (argon2 finds its prebuild).
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --loglevel=error

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The example organisation, for
# `docker compose run --rm api node dist/apps/cli/src/main.js provision examples/demo-organisation.json`
# (docs/operations.md#compose).
COPY examples ./examples
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
CMD ["node", "dist/apps/api/src/main.js"]
