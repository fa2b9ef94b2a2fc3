# A current LTS of Node.js (the service also runs on Node.js 20.19+, which no longer gets security fixes).
FROM node:24-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
COPY cli ./cli
COPY bin ./bin
# npm ci builds dist/ (the prepare script) with the dev dependencies, which prune then removes.
RUN npm ci --strict-allow-scripts --no-audit --no-fund && npm prune --omit=dev
ENV HOST=0.0.0.0 PORT=3000 NODE_ENV=production
EXPOSE 3000
USER node
CMD ["node", "dist/src/main.js"]
