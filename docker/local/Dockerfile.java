# syntax=docker/dockerfile:1
####
# A Java 17 runtime on Debian 12 (JAVA_PACKAGE=openjdk-17-jdk-headless makes it a JDK),
# for machines that cannot pull the public images: bin/images builds it from a debootstrapped Debian as
# localhost/pinion-jre:17, the base of docker/Dockerfile.jvm and docker/hbase/Dockerfile.
#
#   podman build -f docker/local/Dockerfile.java -t localhost/pinion-jre:17 docker/local
####
ARG BASE_IMAGE=docker.io/library/debian:bookworm
FROM ${BASE_IMAGE}
ARG JAVA_PACKAGE=openjdk-17-jre-headless
RUN apt-get update -qq \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $JAVA_PACKAGE ca-certificates \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb
ENV LANG=C.UTF-8
